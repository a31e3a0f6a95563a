// The organizations of a seed: the 14 fixtures, and for large seeds generated ones, so that a
// million loans spread over a deployment of realistic size (at least 50 organizations) while
// the admin's default organization stays the largest by far.
import { SEED } from './context';
import { CITIES, ORGANIZATIONS, STREET_NAMES, type OrganizationFixture } from './fixtures';
import { Rng } from './random';

/** A seed adds one generated organization per this many loans: none for the 2,000-loan demo, 50 at a million. */
export const LOANS_PER_GENERATED_ORGANIZATION = 20_000;
const MAX_GENERATED_ORGANIZATIONS = 200;

/** How many organizations a seed of `loans` generates beyond the fixtures. */
export function generatedOrganizationCount(loans: number, loansPerOrganization = LOANS_PER_GENERATED_ORGANIZATION): number {
  return Math.min(MAX_GENERATED_ORGANIZATIONS, Math.floor(loans / loansPerOrganization));
}

const FIRST_WORDS = [
  'Amber',
  'Bayside',
  'Brightwater',
  'Cardinal',
  'Cedar Hollow',
  'Clearview',
  'Coastal Plains',
  'Crescent',
  'Driftwood',
  'Eagle Rock',
  'Fairhaven',
  'Foxglove',
  'Golden Gate',
  'Greystone',
  'Hawthorn',
  'Heartland',
  'Ironwood',
  'Juniper',
  'Kingsbridge',
  'Lantern',
  'Liberty Bell',
  'Marigold',
  'Millbrook',
  'Northgate',
  'Oakmont',
  'Palisade',
  'Prairie Wind',
  'Quarry Hill',
  'Riverbend',
  'Sagebrush',
  'Silver Birch',
  'Stonegate',
  'Sunbridge',
  'Thornbury',
  'Tidewater',
  'Trillium',
  'Upland',
  'Valley Forge',
  'Westbrook',
  'Windmere',
] as const;
const SECOND_WORDS = [
  ['Home Loans', 'Inc.'],
  ['Mortgage', 'LLC'],
  ['Servicing', 'Corp.'],
  ['Bank', 'N.A.'],
  ['Credit Union', 'Cooperative'],
  ['Capital', 'LP'],
  ['Trust Company', 'Inc.'],
  ['Lending', 'LLC'],
] as const;
const ROLE_SETS: ReadonlyArray<readonly string[]> = [
  ['ORIGINATOR', 'OWNER', 'SERVICER'],
  ['ORIGINATOR', 'OWNER'],
  ['SERVICER', 'SUB_SERVICER'],
  ['OWNER', 'CONTROLLER', 'SECURED_PARTY'],
  ['CONTROLLER', 'SECURED_PARTY'],
  ['ORIGINATOR', 'OWNER', 'SERVICER', 'SUB_SERVICER'],
];
const AREA_CODES = ['201', '214', '305', '404', '480', '503', '615', '702', '713', '720', '773', '808', '816', '904', '919', '971'];

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The initials padded to three letters, or the first initial and two more letters when taken. */
function uniqueCode(initials: string, taken: ReadonlySet<string>): string {
  const base = initials.padEnd(3, 'X').slice(0, 3);
  if (!taken.has(base)) return base;
  for (let k = 0; k < LETTERS.length ** 2; k++) {
    const code = `${base[0]}${LETTERS[Math.floor(k / LETTERS.length)]}${LETTERS[k % LETTERS.length]}`;
    if (!taken.has(code)) return code;
  }
  throw new Error(`No free organization code for ${initials}`);
}

/**
 * Generated organization number `n` (0-based): a name from two word lists, a unique three-letter
 * code, one of the role sets above and a small weight (each takes a fraction of one fixture's share).
 */
export function generatedOrganizations(count: number): OrganizationFixture[] {
  const codes = new Set(ORGANIZATIONS.map((fixture) => fixture.code));
  const names = new Set(ORGANIZATIONS.map((fixture) => fixture.name));
  const result: OrganizationFixture[] = [];
  for (let n = 0; n < count; n++) {
    const rng = Rng.stream(SEED, 'generated-organization', n);
    const first = FIRST_WORDS[n % FIRST_WORDS.length] as string;
    const [kind, suffix] = SECOND_WORDS[(n * 3 + Math.floor(n / FIRST_WORDS.length)) % SECOND_WORDS.length] as readonly [string, string];
    let name = `${first} ${kind}`;
    for (let serial = 2; names.has(name); serial++) name = `${first} ${kind} ${serial}`;
    names.add(name);
    const initials = `${first} ${kind}`
      .split(/\s+/)
      .map((word) => word[0])
      .join('')
      .toUpperCase();
    const code = uniqueCode(initials, codes);
    codes.add(code);
    const [city, state, baseZip] = rng.pick(CITIES);
    const domain = `${name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/-$/, '')}.example`;
    result.push({
      name,
      organizationName: `${name}${suffix === 'N.A.' ? ', N.A.' : ` ${suffix}`}`,
      code,
      domain,
      street: `${rng.int(10, 2999)} ${rng.pick(STREET_NAMES)} ${rng.pick(['Street', 'Avenue', 'Boulevard', 'Plaza'])}`,
      street2: rng.chance(0.4) ? `Suite ${rng.int(100, 2400)}` : undefined,
      city,
      state,
      zip: String(baseZip + rng.int(0, 8)).padStart(5, '0'),
      areaCode: rng.pick(AREA_CODES),
      grantedLimitedPowerOfAttorney: rng.chance(0.3),
      isActive: true,
      partyRoles: ROLE_SETS[n % ROLE_SETS.length] as readonly string[],
      weight: 0.25,
    });
  }
  return result;
}
