/**
 * Fixed reference data of the simulated cloud: the license products (with the product ids the real
 * cloud uses, identical in every tenant), departments and job titles, and places for sign-ins.
 */

export interface SkuProduct {
  skuId: string;
  skuPartNumber: string;
  name: string;
}

export const SKU_CATALOG = {
  SPB: {
    skuId: 'cbdc14ab-d96c-4c30-b9f4-6ada7cdc1d46',
    skuPartNumber: 'SPB',
    name: 'Microsoft 365 Business Premium',
  },
  O365_BUSINESS_PREMIUM: {
    skuId: 'f245ecc8-75af-4f8e-b61f-27d8114de5b3',
    skuPartNumber: 'O365_BUSINESS_PREMIUM',
    name: 'Microsoft 365 Business Standard',
  },
  O365_BUSINESS_ESSENTIALS: {
    skuId: '3b555118-da6a-4418-894f-7df1e2096870',
    skuPartNumber: 'O365_BUSINESS_ESSENTIALS',
    name: 'Microsoft 365 Business Basic',
  },
  ENTERPRISEPACK: {
    skuId: '6fd2c87f-b296-42f0-b197-1e91e994b900',
    skuPartNumber: 'ENTERPRISEPACK',
    name: 'Office 365 E3',
  },
  EXCHANGESTANDARD: {
    skuId: '4b9405b0-7788-4568-add1-99614e613b69',
    skuPartNumber: 'EXCHANGESTANDARD',
    name: 'Exchange Online (Plan 1)',
  },
  POWER_BI_PRO: {
    skuId: 'f8a1db68-be16-40ed-86d5-cb42ce701560',
    skuPartNumber: 'POWER_BI_PRO',
    name: 'Power BI Pro',
  },
  VISIOCLIENT: {
    skuId: 'c5928f49-12ba-48f7-ada3-0d743a3601d5',
    skuPartNumber: 'VISIOCLIENT',
    name: 'Visio Plan 2',
  },
  PROJECTPROFESSIONAL: {
    skuId: '53818b1b-4a27-454b-8896-0dba576410e6',
    skuPartNumber: 'PROJECTPROFESSIONAL',
    name: 'Project Plan 3',
  },
} as const satisfies Record<string, SkuProduct>;

export type SkuPartNumber = keyof typeof SKU_CATALOG;

/** The productivity suites a tenant standardises on (every licensed office worker holds one). */
export const SUITE_SKUS: SkuPartNumber[] = ['SPB', 'O365_BUSINESS_PREMIUM', 'ENTERPRISEPACK'];

export interface DepartmentProfile {
  manager: string;
  titles: string[];
  /** Frontline staff get a mailbox-only license instead of the suite. */
  frontline?: boolean;
  /** A support function: a small share of the staff. */
  support?: boolean;
  /** Add-on licenses some members of the department hold. */
  addOns?: SkuPartNumber[];
}

export const DEPARTMENTS: Record<string, DepartmentProfile> = {
  Executive: {
    manager: 'Chief Executive Officer',
    titles: ['Chief Operating Officer', 'Executive Assistant'],
  },
  Sales: {
    manager: 'Sales Director',
    titles: ['Account Executive', 'Sales Representative', 'Business Development Manager'],
    addOns: ['POWER_BI_PRO'],
  },
  Marketing: {
    manager: 'Marketing Manager',
    support: true,
    titles: ['Marketing Specialist', 'Content Writer', 'Graphic Designer', 'Social Media Coordinator'],
  },
  Finance: {
    manager: 'Finance Manager',
    support: true,
    titles: ['Accountant', 'Financial Analyst', 'Accounts Payable Specialist', 'Payroll Administrator'],
    addOns: ['POWER_BI_PRO'],
  },
  'Human Resources': {
    manager: 'HR Manager',
    support: true,
    titles: ['HR Generalist', 'Recruiter', 'People Operations Coordinator'],
  },
  IT: {
    manager: 'IT Manager',
    support: true,
    titles: ['Systems Administrator', 'Help Desk Technician', 'Network Engineer'],
    addOns: ['VISIOCLIENT'],
  },
  Operations: {
    manager: 'Operations Manager',
    titles: ['Operations Coordinator', 'Project Coordinator', 'Facilities Coordinator'],
    addOns: ['PROJECTPROFESSIONAL'],
  },
  'Customer Service': {
    manager: 'Customer Service Manager',
    titles: ['Customer Service Representative', 'Support Specialist', 'Client Success Manager'],
  },
  Clinical: {
    manager: 'Clinical Director',
    titles: ['Dentist', 'Dental Hygienist', 'Dental Assistant', 'Orthodontist'],
  },
  'Front Office': {
    manager: 'Practice Manager',
    titles: ['Receptionist', 'Patient Coordinator', 'Billing Specialist'],
    frontline: true,
  },
  Veterinary: {
    manager: 'Chief of Staff',
    titles: ['Veterinarian', 'Veterinary Technician', 'Veterinary Assistant'],
  },
  Warehouse: {
    manager: 'Warehouse Manager',
    titles: ['Warehouse Associate', 'Forklift Operator', 'Inventory Clerk', 'Shipping Clerk'],
    frontline: true,
  },
  Transport: {
    manager: 'Fleet Manager',
    titles: ['Dispatcher', 'Route Planner', 'Delivery Driver'],
    frontline: true,
  },
  Design: {
    manager: 'Design Principal',
    titles: ['Architect', 'Project Architect', 'Interior Designer', 'CAD Technician'],
    addOns: ['VISIOCLIENT', 'PROJECTPROFESSIONAL'],
  },
  Legal: {
    manager: 'Managing Partner',
    titles: ['Associate Attorney', 'Senior Associate', 'Paralegal', 'Legal Secretary'],
  },
  Engineering: {
    manager: 'Engineering Manager',
    titles: ['Site Engineer', 'Project Manager', 'Estimator', 'Quantity Surveyor'],
    addOns: ['PROJECTPROFESSIONAL'],
  },
  'Field Operations': {
    manager: 'Superintendent',
    titles: ['Site Supervisor', 'Foreman', 'Safety Officer'],
    frontline: true,
  },
};

export const GENERIC_DEPARTMENTS = ['Sales', 'Marketing', 'Finance', 'Human Resources', 'IT', 'Operations'];

/** Consumer mail domains guests commonly sign in with. */
export const CONSUMER_MAIL_DOMAINS = ['gmail.com', 'outlook.com', 'hotmail.com', 'yahoo.com', 'icloud.com'];

/** Places a risky sign-in comes from: far from the tenant's offices. */
export const UNFAMILIAR_LOCATIONS = [
  'Lagos, NG',
  'Moscow, RU',
  'Shenzhen, CN',
  'São Paulo, BR',
  'Bucharest, RO',
  'Hanoi, VN',
  'Tehran, IR',
  'Pyongyang, KP',
];

/** Service accounts of a typical small-business directory (UPN local part, display name). */
export const SERVICE_ACCOUNTS: Array<{ localPart: string; displayName: string; jobTitle: string }> = [
  { localPart: 'scanner', displayName: 'Scan to Email', jobTitle: 'Multifunction printer' },
  { localPart: 'svc-backup', displayName: 'Backup Service', jobTitle: 'Backup agent' },
  { localPart: 'svc-sql', displayName: 'SQL Reporting Service', jobTitle: 'Reporting server' },
  { localPart: 'noreply', displayName: 'No Reply', jobTitle: 'Outbound notifications' },
  { localPart: 'svc-psa', displayName: 'PSA Integration', jobTitle: 'Ticketing integration' },
];

/** Real places for offices, by country (faker's invented towns look odd in a demo). */
export const OFFICE_CITIES: Record<string, string[]> = {
  US: ['Seattle', 'Austin', 'Denver', 'Chicago', 'Boston', 'Atlanta', 'Portland', 'Phoenix', 'Columbus'],
  GB: ['London', 'Manchester', 'Bristol', 'Leeds', 'Edinburgh', 'Birmingham'],
  CA: ['Toronto', 'Vancouver', 'Calgary', 'Ottawa', 'Halifax'],
  AU: ['Sydney', 'Melbourne', 'Brisbane', 'Perth'],
  DE: ['Berlin', 'München', 'Hamburg', 'Köln', 'Frankfurt am Main'],
  CH: ['Zürich', 'Bern', 'Basel', 'Luzern', 'St. Gallen', 'Winterthur'],
};

/** First octets of public IPv4 space (no private, loopback, link-local, multicast or reserved ranges). */
export const PUBLIC_FIRST_OCTETS = [
  12, 23, 24, 31, 37, 45, 50, 62, 64, 66, 68, 71, 73, 76, 81, 82, 85, 86, 89, 91, 93, 98, 104, 108, 109, 145,
  151, 173, 176, 185, 188, 195, 199, 203, 207, 212, 213, 217,
];

/** Where guests and travelling staff sign in from: ordinary places, not risky ones. */
export const FAMILIAR_PLACES = Object.entries(OFFICE_CITIES).flatMap(([country, cities]) =>
  cities.map((city) => `${city}, ${country}`),
);
