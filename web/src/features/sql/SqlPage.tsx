// Placeholder until the sql feature lands; the router imports this component by name.
export function SqlPage() {
  return (
    <section className="page-coming">
      <h1>sql</h1>
      <p>Coming soon.</p>
    </section>
  );
}
