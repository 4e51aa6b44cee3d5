import { useState } from 'react';
import { MAX_JSON_DEPTH, tooDeepMarker } from '../../../../shared/json-depth';
import { TermText } from '../../ui/HighlightTerms';
import { visibleText } from '../../ui/visible-text';
import { nestedJson } from './attr-value';
import { BoundedText } from './BoundedText';

/** Entries of an object or array shown before "show more": a 2,000-message inputMessages stays light. */
const CHUNK = 100;
/** Strings inside JSON longer than this are shown as a bounded block instead of inline. */
const INLINE_MAX = 300;

/**
 * A JSON value as a collapsible tree, rendered as text nodes only. Children are built only when their node is
 * open, so a big value costs what is on screen. Strings that hold JSON (tool-call arguments) open as trees.
 */
export function JsonTree({ value, openDepth = 2, maxDepth = MAX_JSON_DEPTH }: { value: unknown; openDepth?: number; maxDepth?: number }) {
  return (
    <div className="json-tree" role="group">
      <JsonNode value={value} depth={0} openDepth={openDepth} maxDepth={maxDepth} name={null} />
    </div>
  );
}

function summary(value: object): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  const keys = Object.keys(value);
  return `{${visibleText(keys.slice(0, 4).join(', '))}${keys.length > 4 ? ', …' : ''}}`;
}

interface NodeProps {
  depth: number;
  openDepth: number;
  /** levels shown; below, a note (JSON parsed here, from a string attr, can nest as deep as it is long) */
  maxDepth: number;
  name: string | null;
}

function JsonNode({ value, depth, openDepth, maxDepth, name }: NodeProps & { value: unknown }) {
  const label = name !== null ? <span className="json-key">{visibleText(name)}: </span> : null;
  if (depth >= maxDepth && value !== null && typeof value === 'object') {
    return (
      <div className="json-row">
        {label}
        <span className="json-note">{tooDeepMarker(maxDepth)}</span>
      </div>
    );
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string') {
      const inner = nestedJson(value);
      if (inner !== undefined && inner !== null) return <JsonBranch value={inner as object} depth={depth} openDepth={depth + 1} maxDepth={maxDepth} name={name} note="JSON string" />;
      if (value.length > INLINE_MAX || value.includes('\n')) {
        return (
          <div className="json-row">
            {label}
            <BoundedText text={value} className="json-string-block" first={2048} />
          </div>
        );
      }
      return (
        <div className="json-row">
          {label}
          <span className="json-string">
            "<TermText text={value} />"
          </span>
        </div>
      );
    }
    return (
      <div className="json-row">
        {label}
        <span className={`json-${value === null ? 'null' : typeof value}`}>{String(value)}</span>
      </div>
    );
  }
  return <JsonBranch value={value} depth={depth} openDepth={openDepth} maxDepth={maxDepth} name={name} />;
}

function JsonBranch({ value, depth, openDepth, maxDepth, name, note }: NodeProps & { value: object; note?: string }) {
  const [open, setOpen] = useState(depth < openDepth);
  const [limit, setLimit] = useState(CHUNK);
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  return (
    <div className="json-branch">
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className={`json-caret${open ? ' is-open' : ''}`} aria-hidden="true">
          ▸
        </span>
        {name !== null && <span className="json-key">{visibleText(name)}: </span>}
        <span className="json-summary">{summary(value)}</span>
        {note && <span className="json-note">{note}</span>}
      </button>
      {open && (
        <div className="json-children">
          {entries.slice(0, limit).map(([k, v]) => (
            <JsonNode key={k} value={v} depth={depth + 1} openDepth={openDepth} maxDepth={maxDepth} name={k} />
          ))}
          {entries.length > limit && (
            <button type="button" className="btn btn-small json-more" onClick={() => setLimit(limit + CHUNK * 5)}>
              Show {Math.min(CHUNK * 5, entries.length - limit)} more of {entries.length - limit}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
