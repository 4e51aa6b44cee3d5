// Placeholder until the session feature lands; the router imports this component by name.
export function SessionPage() {
  return (
    <section className="page-coming">
      <h1>session</h1>
      <p>Coming soon.</p>
    </section>
  );
}
