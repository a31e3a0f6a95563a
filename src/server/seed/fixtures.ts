// Fixed vocabulary of the demo seed: organizations, people, places. All names are fictional;
// phone numbers use the 555-01xx range reserved for fiction, domains the .example TLD.

export interface OrganizationFixture {
  readonly name: string;
  readonly organizationName: string;
  readonly code: string;
  readonly domain: string;
  readonly street: string;
  readonly street2?: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly areaCode: string;
  readonly grantedLimitedPowerOfAttorney: boolean;
  readonly isActive: boolean;
  /** Party roles this organization usually holds on a loan. */
  readonly partyRoles: readonly string[];
  /** Relative share of the loans it takes part in. */
  readonly weight: number;
}

const org = (fixture: OrganizationFixture) => fixture;

/**
 * 14 organizations: index 0 is the admin's default, 1 the user's (ORG_ADMIN), 12 the user's
 * second one (the admin is not a member), 13 the inactive one.
 */
export const ORGANIZATIONS: readonly OrganizationFixture[] = [
  org({ name: 'Harborview Mortgage', organizationName: 'Harborview Mortgage Capital, LLC', code: 'HMC', domain: 'harborview-mortgage.example',
    street: '350 Embarcadero Center', street2: 'Suite 1200', city: 'San Francisco', state: 'CA', zip: '94111', areaCode: '415',
    grantedLimitedPowerOfAttorney: true, isActive: true, partyRoles: ['ORIGINATOR', 'OWNER', 'SERVICER', 'CONTROLLER'], weight: 5 }),
  org({ name: 'Summit Ridge Home Loans', organizationName: 'Summit Ridge Home Loans, Inc.', code: 'SRH', domain: 'summitridge-loans.example',
    street: '1700 Lincoln Street', street2: 'Floor 21', city: 'Denver', state: 'CO', zip: '80203', areaCode: '303',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['ORIGINATOR', 'OWNER', 'SERVICER', 'SUB_SERVICER'], weight: 5 }),
  org({ name: 'Blue Heron Servicing', organizationName: 'Blue Heron Loan Servicing Corp.', code: 'BHS', domain: 'blueheron-servicing.example',
    street: '401 South Tryon Street', city: 'Charlotte', state: 'NC', zip: '28202', areaCode: '704',
    grantedLimitedPowerOfAttorney: true, isActive: true, partyRoles: ['SERVICER', 'SUB_SERVICER'], weight: 3 }),
  org({ name: 'Keystone Trust & Custody', organizationName: 'Keystone Trust & Custody Company', code: 'KTC', domain: 'keystone-custody.example',
    street: '600 Grant Street', city: 'Pittsburgh', state: 'PA', zip: '15219', areaCode: '412',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['CONTROLLER', 'SECURED_PARTY'], weight: 3 }),
  org({ name: 'Pinecrest Capital', organizationName: 'Pinecrest Capital Partners LP', code: 'PCP', domain: 'pinecrest-capital.example',
    street: '245 Park Avenue', street2: '39th Floor', city: 'New York', state: 'NY', zip: '10167', areaCode: '212',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['OWNER', 'CONTROLLER', 'SECURED_PARTY'], weight: 3 }),
  org({ name: 'Meridian Federal Bank', organizationName: 'Meridian Federal Bank, N.A.', code: 'MFB', domain: 'meridian-federal.example',
    street: '41 South High Street', city: 'Columbus', state: 'OH', zip: '43215', areaCode: '614',
    grantedLimitedPowerOfAttorney: true, isActive: true, partyRoles: ['ORIGINATOR', 'OWNER', 'SECURED_PARTY'], weight: 2 }),
  org({ name: 'Lakeshore Credit Union', organizationName: 'Lakeshore Community Credit Union', code: 'LCU', domain: 'lakeshore-cu.example',
    street: '233 North Michigan Avenue', city: 'Chicago', state: 'IL', zip: '60601', areaCode: '312',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['ORIGINATOR', 'OWNER', 'SERVICER'], weight: 2 }),
  org({ name: 'Granite Peak Lending', organizationName: 'Granite Peak Lending Group, LLC', code: 'GPL', domain: 'granitepeak-lending.example',
    street: '222 South Main Street', city: 'Salt Lake City', state: 'UT', zip: '84101', areaCode: '801',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['ORIGINATOR', 'OWNER'], weight: 2 }),
  org({ name: 'Copperline Capital Markets', organizationName: 'Copperline Capital Markets, Inc.', code: 'CCM', domain: 'copperline-markets.example',
    street: '2 North Central Avenue', city: 'Phoenix', state: 'AZ', zip: '85004', areaCode: '602',
    grantedLimitedPowerOfAttorney: true, isActive: true, partyRoles: ['OWNER', 'CONTROLLER', 'SECURED_PARTY'], weight: 2 }),
  org({ name: 'Evergreen Servicing', organizationName: 'Evergreen Servicing Solutions, LLC', code: 'ESS', domain: 'evergreen-servicing.example',
    street: '1201 Third Avenue', street2: 'Suite 3400', city: 'Seattle', state: 'WA', zip: '98101', areaCode: '206',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['SERVICER', 'SUB_SERVICER'], weight: 3 }),
  org({ name: 'Atlas Document Custody', organizationName: 'Atlas Document Custody Services, Inc.', code: 'ADC', domain: 'atlas-custody.example',
    street: '80 South Eighth Street', city: 'Minneapolis', state: 'MN', zip: '55402', areaCode: '612',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['CONTROLLER', 'SECURED_PARTY'], weight: 2 }),
  org({ name: 'Northwind Asset Management', organizationName: 'Northwind Asset Management Co.', code: 'NAM', domain: 'northwind-am.example',
    street: '100 Federal Street', city: 'Boston', state: 'MA', zip: '02110', areaCode: '617',
    grantedLimitedPowerOfAttorney: false, isActive: true, partyRoles: ['OWNER', 'CONTROLLER'], weight: 2 }),
  org({ name: 'Redwood Coast Mortgage', organizationName: 'Redwood Coast Mortgage Company', code: 'RCM', domain: 'redwoodcoast-mortgage.example',
    street: '980 Ninth Street', street2: 'Suite 1600', city: 'Sacramento', state: 'CA', zip: '95814', areaCode: '916',
    grantedLimitedPowerOfAttorney: true, isActive: true, partyRoles: ['ORIGINATOR', 'OWNER', 'SERVICER', 'SECURED_PARTY'], weight: 4 }),
  org({ name: 'Old Mill Savings Bank', organizationName: 'Old Mill Savings Bank, FSB', code: 'OMS', domain: 'oldmill-savings.example',
    street: '1 Constitution Plaza', city: 'Hartford', state: 'CT', zip: '06103', areaCode: '860',
    grantedLimitedPowerOfAttorney: false, isActive: false, partyRoles: ['ORIGINATOR', 'OWNER'], weight: 0 }),
];

/** Index of the admin's default organization, and of the user's two. */
export const ADMIN_DEFAULT_ORG = 0;
export const USER_ADMIN_ORG = 1;
export const USER_MEMBER_ORG = 12;

/** Party names that are not registry participants (current value is a plain name). */
export const OUTSIDE_PARTY_NAMES = [
  'Cascade Home Lending LLC', 'First Prairie Bank, N.A.', 'Tidewater Mortgage Trust 2019-2', 'Silver Lake Funding Corp.',
  'Bayou State Mortgage Co.', 'Green Mountain Savings', 'Sandhill Residential Trust 2021-1', 'Mesa Verde Loan Servicing',
] as const;

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Karen', 'Daniel', 'Lisa', 'Matthew', 'Nancy',
  'Anthony', 'Sandra', 'Mark', 'Ashley', 'Andre', 'Kimberly', 'Steven', 'Emily', 'Paul', 'Donna', 'Andrew', 'Michelle',
  'Joshua', 'Carol', 'Kenji', 'Amanda', 'Kevin', 'Melissa', 'Brian', 'Deborah', 'Mateo', 'Stephanie', 'Priya', 'Rebecca',
  'Luis', 'Laura', 'Wei', 'Sharon', 'Ahmed', 'Cynthia', 'Samuel', 'Kathleen', 'Gabriel', 'Amy', 'Noah', 'Angela', 'Elena',
  'Grace', 'Hiroshi', 'Fatima', 'Diego', 'Olivia', 'Ethan', 'Sofia', 'Isaac', 'Naomi',
] as const;

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson',
  'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright',
  'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell',
  'Mitchell', 'Carter', 'Roberts', 'Kim', 'Patel', 'Chen', 'Okafor', 'Yamamoto', "O'Brien", 'Kowalski', 'Schmidt',
  'Novak', 'Haddad', 'Singh', 'Ivanova', 'Lindqvist', 'Delacroix', 'Bianchi', 'Fitzgerald', 'Morales', 'Castillo',
  'Brennan', 'Sullivan',
] as const;

export const STREET_NAMES = [
  'Maple', 'Oak', 'Cedar', 'Pine', 'Elm', 'Willow', 'Birch', 'Walnut', 'Chestnut', 'Magnolia', 'Sycamore', 'Aspen',
  'Lakeview', 'Hillcrest', 'Sunset', 'Highland', 'Meadow', 'Ridge', 'Park', 'Washington', 'Lincoln', 'Jefferson',
  'Madison', 'Franklin', 'Jackson', 'Main', 'Church', 'Mill', 'River', 'Spring', 'Valley', 'Forest', 'Harbor', 'Bayview',
  'Prospect', 'Orchard', 'Country Club', 'Heritage', 'Foxtail', 'Juniper',
] as const;

export const STREET_SUFFIXES = ['St', 'Ave', 'Dr', 'Ln', 'Rd', 'Ct', 'Blvd', 'Way', 'Pl', 'Ter'] as const;

/** [city, state, first ZIP of the city as a number: pad to 5 digits]. */
export const CITIES: ReadonlyArray<readonly [string, string, number]> = [
  ['Austin', 'TX', 78701], ['Dallas', 'TX', 75201], ['Houston', 'TX', 77002], ['San Antonio', 'TX', 78205],
  ['Phoenix', 'AZ', 85003], ['Scottsdale', 'AZ', 85251], ['Denver', 'CO', 80202], ['Boulder', 'CO', 80301],
  ['Los Angeles', 'CA', 90012], ['San Diego', 'CA', 92101], ['Oakland', 'CA', 94607], ['Fresno', 'CA', 93721],
  ['Seattle', 'WA', 98104], ['Spokane', 'WA', 99201], ['Portland', 'OR', 97204], ['Boise', 'ID', 83702],
  ['Las Vegas', 'NV', 89101], ['Salt Lake City', 'UT', 84111], ['Albuquerque', 'NM', 87102], ['Omaha', 'NE', 68102],
  ['Kansas City', 'MO', 64105], ['St. Louis', 'MO', 63101], ['Minneapolis', 'MN', 55401], ['Madison', 'WI', 53703],
  ['Chicago', 'IL', 60602], ['Indianapolis', 'IN', 46204], ['Columbus', 'OH', 43215], ['Cleveland', 'OH', 44113],
  ['Detroit', 'MI', 48226], ['Nashville', 'TN', 37203], ['Atlanta', 'GA', 30303], ['Charlotte', 'NC', 28202],
  ['Raleigh', 'NC', 27601], ['Charleston', 'SC', 29401], ['Richmond', 'VA', 23219], ['Baltimore', 'MD', 21201],
  ['Philadelphia', 'PA', 19103], ['Pittsburgh', 'PA', 15222], ['Newark', 'NJ', 7102], ['Albany', 'NY', 12207],
  ['Brooklyn', 'NY', 11201], ['Boston', 'MA', 2108], ['Providence', 'RI', 2903], ['Portland', 'ME', 4101],
  ['Burlington', 'VT', 5401], ['Tampa', 'FL', 33602], ['Orlando', 'FL', 32801], ['Miami', 'FL', 33130],
  ['New Orleans', 'LA', 70112], ['Birmingham', 'AL', 35203], ['Louisville', 'KY', 40202], ['Honolulu', 'HI', 96813],
  ['Anchorage', 'AK', 99501], ['Washington', 'DC', 20001], ['San Juan', 'PR', 901],
];

export const POOL_DESCRIPTORS = [
  'Prime Jumbo', 'HELOC Select', 'Agency Eligible', 'Non-QM', 'DSCR Investor', 'Bridge RTL', 'Piggyback Seconds',
  'Crypto-Backed HELOC', 'Whole Loan', 'Seasoned Performing',
] as const;

export const ENTITY_TYPES = ['Corporation', 'Limited Liability Company', 'National Bank', 'Statutory Trust', 'Credit Union'] as const;
