// Placeholder until the search feature lands; the router imports this component by name.
export function SearchPage() {
  return (
    <section className="page-coming">
      <h1>search</h1>
      <p>Coming soon.</p>
    </section>
  );
}
