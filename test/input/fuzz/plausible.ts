import fc from 'fast-check';

/**
 * Values that satisfy common field rules, chosen by field name (so they apply to any input that uses the
 * name): a case built from them passes validation except where another field is bad, which is what takes
 * a NUL or a surrogate past the first check and down to the service and PostgreSQL.
 */
export function plausibleValues(tenantDomain: string, tenantId: string) {
  const word = fc.constantFrom('Ada', 'Grace', 'Alan', 'Edsger', 'Barbara');
  const unique = fc.integer({ min: 1, max: 1_000_000 });
  const byName: Array<[RegExp, fc.Arbitrary<unknown>]> = [
    [/^userPrincipalName$/, unique.map((n) => `fuzz${n}@${tenantDomain}`)],
    [/email/i, unique.map((n) => `fuzz${n}@example.com`)],
    [/url$/i, fc.constantFrom('https://example.com/hook', 'https://hooks.slack.com/services/T0/B0/x')],
    [/^usageLocation$/, fc.constantFrom('US', 'DE')],
    [/^events$/, fc.constantFrom(['*'], ['user.*'])],
    [/^password$/, fc.constant('Str0ng!Passw0rd#2026')],
    [/^tenantIds$/, fc.constant([tenantId])],
    [/name$/i, word],
  ];
  return (fieldName: string): fc.Arbitrary<unknown> | undefined =>
    byName.find(([pattern]) => pattern.test(fieldName))?.[1];
}
