import type { EndpointDefinition } from '../kit/define.js';
import { webinarPanelists } from './panelists.js';
import { meetingRegister, webinarRegister } from './register.js';
import { webinarRegistrantsList, webinarRegistration } from './registrant-lists.js';
import { webinarRegistrantsApprove, webinarRegistrationCancel } from './registrant-status.js';

/** The v1 registration, registrant and panelist endpoints (meetings and webinars). */
export const registrationEndpoints: EndpointDefinition[] = [
  meetingRegister,
  webinarRegister,
  webinarRegistration,
  webinarRegistrationCancel,
  webinarRegistrantsList,
  webinarRegistrantsApprove,
  webinarPanelists,
];
