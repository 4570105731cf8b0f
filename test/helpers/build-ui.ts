/** Vitest global setup: the hosted UI's script and stylesheet are built before any test serves them. */
export default async function setup(): Promise<void> {
  // @ts-expect-error a plain ES module without type declarations
  const { buildUi } = await import('../../scripts/build-ui.mjs');
  await buildUi();
}
