import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { isTypingTarget } from '../ui/keys/list-selection';
import { goShortcutStep } from './nav';

/** `g s`, `g f`, `g t`, `g l`, `g q`, `g h`: go to a page. Ignored while typing or with a modifier held. */
export function useGoShortcuts(): void {
  const navigate = useNavigate();
  const pending = useRef<{ key: string; at: number } | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (e.target instanceof Element && e.target.closest('dialog')) return;
      const step = goShortcutStep(pending.current, e.key, e.timeStamp);
      pending.current = step.pending;
      if (step.to) {
        e.preventDefault();
        navigate(step.to);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
}
