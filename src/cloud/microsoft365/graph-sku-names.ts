/**
 * Readable names of Microsoft's license SKUs, by `skuPartNumber` (learn.microsoft.com, "Product names and
 * service plan identifiers for licensing"). Graph's subscribedSkus carries the part number only; the product
 * shows a name beside it, as the sandbox does. A part number missing here is shown as itself.
 */
const SKU_NAMES: Readonly<Record<string, string>> = {
  SPB: 'Microsoft 365 Business Premium',
  O365_BUSINESS_PREMIUM: 'Microsoft 365 Business Standard',
  O365_BUSINESS_ESSENTIALS: 'Microsoft 365 Business Basic',
  O365_BUSINESS: 'Microsoft 365 Apps for business',
  SMB_BUSINESS: 'Microsoft 365 Apps for business',
  SMB_BUSINESS_ESSENTIALS: 'Microsoft 365 Business Basic',
  SMB_BUSINESS_PREMIUM: 'Microsoft 365 Business Standard',
  OFFICESUBSCRIPTION: 'Microsoft 365 Apps for enterprise',
  STANDARDPACK: 'Office 365 E1',
  ENTERPRISEPACK: 'Office 365 E3',
  ENTERPRISEPREMIUM: 'Office 365 E5',
  ENTERPRISEPREMIUM_NOPSTNCONF: 'Office 365 E5 (without Audio Conferencing)',
  DESKLESSPACK: 'Office 365 F3',
  SPE_E3: 'Microsoft 365 E3',
  SPE_E5: 'Microsoft 365 E5',
  SPE_F1: 'Microsoft 365 F3',
  EXCHANGESTANDARD: 'Exchange Online (Plan 1)',
  EXCHANGEENTERPRISE: 'Exchange Online (Plan 2)',
  EXCHANGEDESKLESS: 'Exchange Online Kiosk',
  EXCHANGEARCHIVE_ADDON: 'Exchange Online Archiving for Exchange Online',
  POWER_BI_PRO: 'Power BI Pro',
  POWER_BI_STANDARD: 'Power BI (free)',
  VISIOCLIENT: 'Visio Plan 2',
  PROJECTPROFESSIONAL: 'Project Plan 3',
  PROJECTPREMIUM: 'Project Plan 5',
  AAD_PREMIUM: 'Microsoft Entra ID P1',
  AAD_PREMIUM_P2: 'Microsoft Entra ID P2',
  EMS: 'Enterprise Mobility + Security E3',
  EMSPREMIUM: 'Enterprise Mobility + Security E5',
  INTUNE_A: 'Microsoft Intune Plan 1',
  ATP_ENTERPRISE: 'Microsoft Defender for Office 365 (Plan 1)',
  THREAT_INTELLIGENCE: 'Microsoft Defender for Office 365 (Plan 2)',
  MCOEV: 'Microsoft Teams Phone Standard',
  TEAMS_EXPLORATORY: 'Microsoft Teams Exploratory',
  FLOW_FREE: 'Microsoft Power Automate Free',
  WIN10_VDA_E3: 'Windows 10/11 Enterprise E3',
};

export function skuDisplayName(skuPartNumber: string): string {
  return SKU_NAMES[skuPartNumber] ?? skuPartNumber;
}
