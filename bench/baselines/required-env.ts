/** A variable a bench process cannot run without; its absence stops the start with the variable's name. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} must be set for this bench process.`);
  return value;
}
