import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** A page that threw while rendering, or a URL no route matches: said inside the shell, with a way back. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <section className="page">
      <header className="page-header">
        <h1>{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      </header>
      {!notFound && (
        <div className="error-inline" role="alert">
          <span className="error-inline-text">{message}</span>
        </div>
      )}
      <p>
        <Link to="/">Back to sessions</Link>
      </p>
    </section>
  );
}

export function NotFound() {
  return (
    <section className="page">
      <header className="page-header">
        <h1>Page not found</h1>
      </header>
      <p>
        Nothing lives at this address. <Link to="/">Back to sessions</Link>
      </p>
    </section>
  );
}
