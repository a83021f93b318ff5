import { useId, useState } from 'react';
import type { TableExtractionResult } from '../../../contract/extract';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import './page-tables.css';

type PageTablesResult = TableExtractionResult['results'];

/**
 * Table extraction on a page of an uploaded PDF (002 §3 upload_client table_extraction, flag
 * doc_table_extraction; C55 POST /ml/table-extraction through the worker's `tables.page`): the
 * reader picks a page (the cited one first) and gets its tables, each shown as a table whose
 * first row is its header, or word that the page has none.
 */
export function PageTablesButton(props: { deeplink: string; page?: number }) {
  const { client } = useShell();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(String(props.page ?? 1));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<PageTablesResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();

  const extract = async () => {
    const n = Number(page);
    if (!Number.isInteger(n) || n < 1) {
      setError('Enter a page number of 1 or more.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setResult(await client.call('tables.page', { deeplink: props.deeplink, page_number: n }));
    } catch (failure) {
      setResult(null);
      setError(userMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button secondary small"
        aria-expanded={open}
        onClick={() => setOpen((was) => !was)}
      >
        Tables
      </button>
      {open ? (
        <section className="page-tables" aria-label="Tables on a page">
          <form
            className="page-tables-form"
            onSubmit={(event) => {
              event.preventDefault();
              void extract();
            }}
          >
            <label htmlFor={fieldId}>Page</label>
            <input
              id={fieldId}
              type="number"
              min={1}
              max={result?.num_pages}
              value={page}
              onChange={(event) => setPage(event.target.value)}
            />
            <button
              type="submit"
              className="button small"
              disabled={busy}
              aria-busy={busy || undefined}
            >
              Extract tables
            </button>
          </form>
          {error ? (
            <p className="page-tables-error" role="alert">
              {error}
            </p>
          ) : null}
          {result ? <PageTables result={result} /> : null}
        </section>
      ) : null}
    </>
  );
}

function PageTables(props: { result: PageTablesResult }) {
  const { tables, page_number: page, num_pages: pages } = props.result;
  if (tables.length === 0) {
    return (
      <p role="status">
        No tables found on page {page} of {pages}.
      </p>
    );
  }
  return (
    <div role="status">
      <p>
        {tables.length === 1 ? '1 table' : `${tables.length} tables`} on page {page} of {pages}
      </p>
      {tables.map((table, i) => {
        const [head, ...rows] = table.rows;
        return (
          <table key={i} className="page-table" aria-label={`Table ${i + 1} of page ${page}`}>
            <thead>
              <tr>
                {(head ?? []).map((cell, c) => (
                  <th key={c} scope="col">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
    </div>
  );
}
