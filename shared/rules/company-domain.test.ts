import { describe, expect, it } from 'vitest';
import { companyDomainFromName, GENERATED_DOMAIN_SUFFIX } from './company-domain.ts';

describe('companyDomainFromName', () => {
  it('keeps the first 12 lowercase letters and digits of the name, then the last 8 timestamp digits', () => {
    expect(companyDomainFromName('Summit Builders, Inc.', 1718035200123)).toBe(
      'summitbuilde35200123.sitecommand.app',
    );
  });

  it('keeps a short name whole', () => {
    expect(companyDomainFromName('ACME 42', 1718035200123)).toBe('acme4235200123.sitecommand.app');
  });

  it('drops accents, punctuation and spaces rather than encoding them', () => {
    expect(companyDomainFromName('Böhm & Söhne GmbH', 1_000_000_000_000)).toBe(
      'bhmshnegmbh00000000.sitecommand.app',
    );
  });

  it('falls back to "company" when the name has no letter or digit', () => {
    expect(companyDomainFromName('— ✓ —', 1718035200123)).toBe('company35200123.sitecommand.app');
  });

  it('pads a short timestamp to 8 digits', () => {
    expect(companyDomainFromName('Harbor', 42)).toBe('harbor00000042.sitecommand.app');
  });

  it('changes with the timestamp, so the same name twice gives two domains', () => {
    expect(companyDomainFromName('Harbor', 1718035200123)).not.toBe(
      companyDomainFromName('Harbor', 1718035200124),
    );
  });

  it('always produces a valid lowercase host name under the product suffix', () => {
    for (const name of ['X', 'Very Long Construction Company Name Limited', '123 Builders', '']) {
      const domain = companyDomainFromName(name, Date.UTC(2025, 0, 1));
      expect(domain.endsWith(GENERATED_DOMAIN_SUFFIX)).toBe(true);
      expect(domain).toMatch(/^[a-z0-9]{9,20}\.sitecommand\.app$/);
    }
  });
});
