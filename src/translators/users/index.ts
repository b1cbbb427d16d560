import type { EndpointDefinition } from '../kit/define.js';
import { userAssistantDelete, userAssistantSet, userScheduleForHostList } from './assistants.js';
import { userCheckEmail, userCheckZpk } from './check.js';
import { userAutoCreate, userCreate, userCustCreate, userSsoCreate } from './create.js';
import { userGet, userGetByEmail } from './get.js';
import { userList, userPending } from './list.js';
import { userUpdatePassword } from './password.js';
import { userUploadPicture } from './picture.js';
import { userDelete, userPermanentDelete } from './remove.js';
import { userRevokeToken } from './revoke-token.js';
import { userActivate, userDeactivate } from './status.js';
import { userUpdate } from './update.js';

/** The v1 user endpoints. */
export const usersEndpoints: EndpointDefinition[] = [
  userCreate,
  userAutoCreate,
  userCustCreate,
  userSsoCreate,
  userList,
  userPending,
  userGet,
  userGetByEmail,
  userUpdate,
  userUpdatePassword,
  userUploadPicture,
  userActivate,
  userDeactivate,
  userDelete,
  userPermanentDelete,
  userRevokeToken,
  userAssistantSet,
  userAssistantDelete,
  userScheduleForHostList,
  userCheckEmail,
  userCheckZpk,
];
