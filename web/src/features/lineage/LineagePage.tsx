// Placeholder until the lineage feature lands; the router imports this component by name.
export function LineagePage() {
  return (
    <section className="page-coming">
      <h1>lineage</h1>
      <p>Coming soon.</p>
    </section>
  );
}
