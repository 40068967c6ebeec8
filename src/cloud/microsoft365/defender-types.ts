/**
 * Defender for Endpoint's API entities as it sends them (learn.microsoft.com, "Machine resource type" and
 * "MachineAction resource type"): only the properties the provider reads.
 */
export type DefenderRiskScore = 'None' | 'Informational' | 'Low' | 'Medium' | 'High';
export type DefenderExposureLevel = 'None' | 'Low' | 'Medium' | 'High';
export type DefenderHealthStatus =
  | 'Active'
  | 'Inactive'
  | 'ImpairedCommunication'
  | 'NoSensorData'
  | 'NoSensorDataImpairedCommunication'
  | 'Unknown';
export type DefenderOnboardingStatus = 'Onboarded' | 'CanBeOnboarded' | 'Unsupported' | 'InsufficientInfo';

export interface DefenderMachine {
  id: string;
  computerDnsName: string | null;
  /** The Entra ID (Azure AD) device id: what joins the machine to Intune's managed device. */
  aadDeviceId: string | null;
  osPlatform: string | null;
  lastSeen: string | null;
  healthStatus: DefenderHealthStatus | null;
  onboardingStatus: DefenderOnboardingStatus | null;
  riskScore: DefenderRiskScore | null;
  exposureLevel: DefenderExposureLevel | null;
}

export type DefenderActionType = 'Isolate' | 'Unisolate' | 'RunAntiVirusScan' | (string & {});
export type DefenderActionStatus =
  'Pending' | 'InProgress' | 'Succeeded' | 'Failed' | 'TimeOut' | 'Cancelled';

export interface DefenderMachineAction {
  id: string;
  type: DefenderActionType;
  /** Isolate: Full | Selective; RunAntiVirusScan: Quick | Full. */
  scope: string | null;
  requestor: string | null;
  requestorComment: string | null;
  status: DefenderActionStatus;
  machineId: string;
  computerDnsName: string | null;
  creationDateTimeUtc: string;
  lastUpdateDateTimeUtc: string | null;
  cancellationRequestor?: string | null;
  cancellationComment?: string | null;
  errorHResult?: number | null;
  title?: string | null;
}
