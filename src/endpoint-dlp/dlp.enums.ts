/** SPEC 2.6 "Endpoint DLP policy": action. */
export enum DlpPolicyAction {
  AUDIT_ONLY = 'Audit only',
  BLOCK_WITH_OVERRIDE = 'Block with override',
  BLOCK = 'Block',
}

/** SPEC 2.6 "Endpoint DLP policy": the six monitored activities. */
export enum DlpActivity {
  COPY_TO_REMOVABLE_MEDIA = 'Copy to removable media',
  COPY_TO_NETWORK_SHARE = 'Copy to network share',
  UPLOAD_TO_CLOUD_SERVICE = 'Upload to cloud service',
  ACCESS_BY_UNALLOWED_APPS = 'Access by unallowed apps',
  PRINT = 'Print',
  CLIPBOARD_COPY_PASTE = 'Clipboard copy/paste',
}

/** What the policy did to the activity. */
export enum DlpActionTaken {
  AUDITED = 'Audited',
  BLOCKED = 'Blocked',
  OVERRIDDEN = 'Overridden',
}
