/**
 * The known name a misspelt one most likely meant: the same name in other case, or one at most two edits away
 * (a letter added, dropped, changed, or two neighbours swapped) and at most a third of the longer name's length,
 * so that `Box` does not suggest `Bag`. Among several, the closest, then the first given. `undefined` when none is
 * near: a slot check then says only that no remote provides the name.
 */
export function nearName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance > 2 || distance * 3 > Math.max(name.length, candidate.length)) continue;
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  return best?.name;
}

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`: optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
