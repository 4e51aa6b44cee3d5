import { useEffect } from 'react';

/** "Sessions · Chronoscope": so that browser history and tabs say which page is which. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Chronoscope` : 'Chronoscope';
  }, [title]);
}
