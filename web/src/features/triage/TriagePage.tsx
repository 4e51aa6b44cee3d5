// Placeholder until the triage feature lands; the router imports this component by name.
export function TriagePage() {
  return (
    <section className="page-coming">
      <h1>triage</h1>
      <p>Coming soon.</p>
    </section>
  );
}
