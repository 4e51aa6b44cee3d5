import type { SqlExample, SqlTableInfo } from '../../../../shared/api';
import { Badge } from '../../ui/Badge';

/** The examples, then every table with its columns; a click inserts a name into the editor. Plain props. */
export function SchemaPane({
  tables,
  examples,
  onInsert,
  onExample,
}: {
  tables: SqlTableInfo[];
  examples: SqlExample[];
  onInsert: (text: string) => void;
  onExample: (example: SqlExample) => void;
}) {
  return (
    <aside className="sql-side" aria-label="Examples and schema">
      <h2 className="section-title sql-side-title">Examples</h2>
      <ul className="sql-examples">
        {examples.map((e) => (
          <li key={e.title}>
            <button type="button" className="sql-example" onClick={() => onExample(e)} title={e.description}>
              {e.title}
            </button>
          </li>
        ))}
      </ul>
      <h2 className="section-title sql-side-title">
        Schema <span className="section-count">{tables.length} tables</span>
      </h2>
      <ul className="sql-tables">
        {tables.map((t) => (
          <li key={t.name}>
            <details open={t.name === 'sessions'}>
              <summary>
                <span className="mono sql-table-name">{t.name}</span>
                {t.chronicle && (
                  <Badge tone="info" title="One of Chronicle's tables: its documented queries run unchanged">
                    Chronicle
                  </Badge>
                )}
                {t.type !== 'table' && <Badge>{t.type === 'virtual' ? 'FTS' : t.type}</Badge>}
                <button type="button" className="btn btn-small sql-insert" onClick={() => onInsert(t.name)} aria-label={`Insert table name ${t.name}`}>
                  +
                </button>
              </summary>
              <ul className="sql-columns">
                {t.columns.map((c) => (
                  <li key={c.name}>
                    <button type="button" className="sql-column" onClick={() => onInsert(c.name)} title={`Insert ${c.name}`}>
                      <span className="mono">{c.name}</span>
                      <span className="sql-column-type">
                        {c.type || 'any'}
                        {c.pk ? ' · key' : ''}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ul>
    </aside>
  );
}
