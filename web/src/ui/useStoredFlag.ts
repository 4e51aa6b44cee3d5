import { useCallback, useState } from 'react';

/** A boolean remembered in localStorage (a layout preference, not shareable view state). */
export function useStoredFlag(key: string): [boolean, (v: boolean) => void] {
  const [value, setValue] = useState(() => {
    try {
      return localStorage.getItem(key) === '1';
    } catch {
      return false;
    }
  });
  const set = useCallback(
    (v: boolean) => {
      setValue(v);
      try {
        localStorage.setItem(key, v ? '1' : '0');
      } catch {
        /* private mode: this page only */
      }
    },
    [key],
  );
  return [value, set];
}
