import type { EndpointDefinition } from '../kit/define.js';
import { chatGet, chatList } from './history.js';

/** v1's chat history: the account's sessions, and one session's messages. */
export const chatEndpoints: EndpointDefinition[] = [chatList, chatGet];
