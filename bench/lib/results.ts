// bench/RESULTS.md is a set of `## <title>` sections; a run replaces its own and keeps the rest.

export function replaceSection(doc: string, title: string, body: string): string {
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = doc.indexOf(`${heading}\n`);
  if (start < 0) return `${doc.trimEnd()}\n\n${section}`;
  const next = doc.indexOf('\n## ', start + heading.length);
  return doc.slice(0, start) + section + (next < 0 ? '' : doc.slice(next));
}
