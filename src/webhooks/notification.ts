import type { V1Status } from './events.js';

/** What a v1 notification says: the meeting (or webinar) number, its instance, the status, the host. */
export interface V1Notification {
  id: string;
  uuid: string;
  status: V1Status;
  host_id: string;
}

export type NotificationFormat = 'status' | 'type-content';

/**
 * The urlencoded body v1 posted. `status`: exactly the four fields, nothing more (strict receivers
 * answer 400 to an unknown key). `type-content`: the older shape some receivers still parse.
 */
export function encodeNotification(n: V1Notification, format: NotificationFormat): string {
  const form = new URLSearchParams();
  if (format === 'type-content') {
    form.set('type', n.status);
    form.set('content', JSON.stringify({ id: n.id, uuid: n.uuid, host_id: n.host_id }));
  } else {
    form.set('id', n.id);
    form.set('uuid', n.uuid);
    form.set('status', n.status);
    form.set('host_id', n.host_id);
  }
  return form.toString();
}
