/**
 * The top-level suffix of generated company domains. Spec 02 section 9 names a suffix but not its value;
 * we chose the product's own domain so a generated address is recognisably ours and never collides with a
 * company's real domain.
 */
export const GENERATED_DOMAIN_SUFFIX = '.sitecommand.app';

/** How many characters of the sanitized company name a generated domain keeps (spec 02 section 9). */
export const DOMAIN_NAME_CHARS = 12;

/** How many trailing digits of the millisecond timestamp a generated domain keeps (spec 02 section 9). */
export const DOMAIN_TIMESTAMP_DIGITS = 8;

/**
 * The fallback domain of a company created with a blank domain (spec 02 sections 5 and 9): the name
 * lowercased with everything but a-z and 0-9 removed, cut to 12 characters, then the last 8 digits of the
 * timestamp (epoch milliseconds), then `.sitecommand.app`. A name with no usable character contributes
 * 'company' so the label never starts with bare digits only by accident of the input.
 *
 * @example companyDomainFromName('Summit Builders, Inc.', 1718035200123) === 'summitbuilde35200123.sitecommand.app'
 */
export function companyDomainFromName(name: string, timestampMs: number): string {
  const sanitized =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, DOMAIN_NAME_CHARS) || 'company';
  const digits = String(Math.trunc(Math.abs(timestampMs))).padStart(DOMAIN_TIMESTAMP_DIGITS, '0');
  return `${sanitized}${digits.slice(-DOMAIN_TIMESTAMP_DIGITS)}${GENERATED_DOMAIN_SUFFIX}`;
}
