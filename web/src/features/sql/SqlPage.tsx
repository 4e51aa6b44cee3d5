import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SqlExample, SqlResult } from '../../../../shared/api';
import { ApiRequestError } from '../../api/client';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount } from '../../ui/format';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { download, toCsv, toJsonRecords } from './export';
import { ResultTable } from './ResultTable';
import { SchemaPane } from './SchemaPane';
import { sqlResultOptions, sqlSchemaOptions } from './sql.queries';
import './sql.css';
import { useSqlUrl } from './url';

const DEFAULT_SQL = `SELECT id, repository, summary, updated_at
FROM sessions
ORDER BY updated_at DESC
LIMIT 50`;

/**
 * `/sql`: one read-only SELECT or WITH statement against the index, with the schema and Chronicle's documented
 * queries beside the editor. The statement last run is in the URL (`?q=`), so a query can be shared; opening
 * such a link runs it (read-only, capped and time-limited on the server).
 */
export function SqlPage() {
  useDocumentTitle('SQL');
  const [{ q }, setQ] = useSqlUrl();
  const [draft, setDraft] = useState(q ?? DEFAULT_SQL);
  const [ran, setRan] = useState<{ sql: string | null; run: number }>({ sql: q, run: 0 });
  const [loadedExample, setLoadedExample] = useState<SqlExample | null>(null);
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const schema = useQuery(sqlSchemaOptions());
  const result = useQuery(sqlResultOptions(ran.sql, ran.run));

  // Back and forward through run statements: the URL is the source of truth for what ran.
  useEffect(() => {
    if (q !== null && q !== ran.sql) {
      setDraft(q);
      setRan((r) => ({ sql: q, run: r.run + 1 }));
    }
  }, [q]); // eslint-disable-line react-hooks/exhaustive-deps

  const run = () => {
    const sql = draft.trim();
    if (!sql) return;
    setRan((r) => ({ sql, run: r.run + 1 }));
    setQ(sql);
  };

  const onEditorKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  };

  const insert = (text: string) => {
    const el = editorRef.current;
    const start = el?.selectionStart ?? draft.length;
    const end = el?.selectionEnd ?? draft.length;
    setDraft(draft.slice(0, start) + text + draft.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  const loadExample = (e: SqlExample) => {
    setDraft(e.sql);
    setLoadedExample(e);
    requestAnimationFrame(() => editorRef.current?.focus());
  };

  const limits = schema.data?.limits;
  return (
    <section className="page sql-page">
      <header className="page-header">
        <h1>SQL</h1>
        <p className="muted sql-lede">
          One read-only <code>SELECT</code> or <code>WITH</code> statement against the index
          {limits ? ` · first ${formatCount(limits.maxRows)} rows · ${limits.timeoutMs / 1000} s limit` : ''}. Chronicle's tables and queries work as they are.
        </p>
      </header>
      <div className="sql-layout">
        <div className="sql-main">
          <div className="sql-editor-wrap">
            <label className="field-label" htmlFor="sql-editor">
              Statement
            </label>
            <textarea
              id="sql-editor"
              ref={editorRef}
              className="sql-editor mono"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onEditorKey}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              rows={9}
              maxLength={limits?.maxChars}
            />
            <div className="sql-editor-bar">
              <button type="button" className="btn sql-run" onClick={run} disabled={draft.trim() === '' || result.isFetching}>
                Run
              </button>
              <span className="muted sql-hint">Ctrl+Enter</span>
              {loadedExample && draft === loadedExample.sql && <span className="muted sql-example-note">{loadedExample.description}</span>}
            </div>
          </div>
          <ResultArea sql={ran.sql} result={result} />
        </div>
        {schema.isError ? (
          <aside className="sql-side">
            <ErrorInline error={schema.error} what="the schema" onRetry={() => void schema.refetch()} />
          </aside>
        ) : schema.data ? (
          <SchemaPane tables={schema.data.tables} examples={schema.data.examples} onInsert={insert} onExample={loadExample} />
        ) : (
          <aside className="sql-side">
            <Spinner label="Loading the schema" />
          </aside>
        )}
      </div>
    </section>
  );
}

function ResultArea({ sql, result }: { sql: string | null; result: ReturnType<typeof useQuery<SqlResult>> }) {
  const elapsed = useElapsed(result.isFetching);
  if (sql === null) {
    return (
      <EmptyState title="No query run yet">
        Write a statement or pick an example, then press Run. Tables and columns are listed on the right.
      </EmptyState>
    );
  }
  if (result.isFetching) {
    return (
      <div className="sql-status" aria-live="polite">
        <span className="sql-running">
          <Spinner label="Running the query" /> Running… {(elapsed / 1000).toFixed(1)} s
        </span>
      </div>
    );
  }
  if (result.isError) {
    // A refused or failing statement fails the same way again; a timeout or a busy server may not.
    const code = result.error instanceof ApiRequestError ? result.error.code : null;
    const retryable = code !== 'sql_refused' && code !== 'sql_error' && code !== 'bad_request';
    return <ErrorInline error={result.error} onRetry={retryable ? () => void result.refetch() : undefined} />;
  }
  const data = result.data;
  if (!data) return null;
  return (
    <div className="sql-results">
      <div className="sql-status" aria-live="polite">
        <span>
          {data.truncated ? 'first ' : ''}
          {formatCount(data.rows.length)} {data.rows.length === 1 ? 'row' : 'rows'}
          {data.truncatedBy === 'rows' && ` — more exist (the console stops at ${formatCount(data.rows.length)})`}
          {data.truncatedBy === 'size' && ' — stopped at the result size bound'}
          {data.cellsCut > 0 && ` · ${formatCount(data.cellsCut)} long ${data.cellsCut === 1 ? 'value' : 'values'} cut`}
          <span className="muted"> · {data.elapsedMs} ms</span>
        </span>
        <span className="sql-export">
          <button type="button" className="btn btn-small" disabled={data.rows.length === 0} onClick={() => download('chronoscope-query.csv', toCsv(data), 'text/csv;charset=utf-8')}>
            Export CSV
          </button>
          <button type="button" className="btn btn-small" disabled={data.rows.length === 0} onClick={() => download('chronoscope-query.json', toJsonRecords(data), 'application/json')}>
            Export JSON
          </button>
        </span>
      </div>
      {data.columns.length > 0 && <ResultTable result={data} />}
      {data.rows.length === 0 && <p className="muted">No rows.</p>}
    </div>
  );
}

/** Milliseconds since `active` became true, ticking while it stays true. */
function useElapsed(active: boolean): number {
  const [start, setStart] = useState(0);
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!active) return;
    const t0 = Date.now();
    setStart(t0);
    setNow(t0);
    const id = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(id);
  }, [active]);
  return active ? now - start : 0;
}
