import { useEffect } from 'react';
import { visibleText } from './visible-text';

/** "Sessions · Chronoscope": so that browser history and tabs say which page is which (titles are log text). */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${visibleText(title)} · Chronoscope` : 'Chronoscope';
  }, [title]);
}
