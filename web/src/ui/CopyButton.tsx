import { useState, type MouseEvent } from 'react';
import { copyText } from './copy-text';

/** A small button that copies `text` (an id, a path) and says so for a moment. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const onClick = (e: MouseEvent) => {
    // inside a clickable row: copying is not opening
    e.preventDefault();
    e.stopPropagation();
    void copyText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <button type="button" className="copy-btn" onClick={onClick} aria-label={`Copy the ${what}`} title={copied ? 'Copied' : `Copy the ${what}`}>
      {copied ? '✓' : <CopyIcon />}
    </button>
  );
}

function CopyIcon() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.4">
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" />
    </svg>
  );
}
