export default function HomePage() {
  return (
    <main>
      <h1>Identity Tags</h1>
      <p>Own a human-readable name on Solana.</p>
    </main>
  );
}
