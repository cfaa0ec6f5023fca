/** "1 problem", "2 problems", "0 slots": a count with its noun in the number it takes (`plural`: irregular ones). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? singular : plural}`;
}
