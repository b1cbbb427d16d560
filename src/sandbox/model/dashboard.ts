/**
 * Account-wide dashboard data that only real rooms, connectors and chat clients produce: Zoom
 * Rooms, cloud room connector (CRC) port usage and instant-messaging counters. The control API
 * (src/sandbox/control/dashboard-routes.ts) seeds them; GET /metrics/zoomrooms, /metrics/crc and
 * /metrics/im read them. Field names are the v2 ones.
 */

export interface ZoomRoom {
  id: string;
  account_id: string;
  room_name: string;
  calender_name: string;
  email: string;
  account_type: string;
  /** The room's own state when no meeting runs in it (`Available`, `Offline`, ...). */
  status: string;
  device_ip: string;
  camera: string;
  microphone: string;
  speaker: string;
  /** Meetings held in the room (the control API says so): its live and past sessions. */
  meeting_ids: number[];
}

/** One hour of CRC port usage of an account. */
export interface CrcHourUsage {
  account_id: string;
  /** `yyyy-mm-dd`, UTC. */
  date: string;
  /** `00` to `23`. */
  hour: string;
  max_usage: number;
  total_usage: number;
}

export const IM_COUNTERS = [
  'total_send',
  'total_receive',
  'group_send',
  'group_receive',
  'calls_send',
  'calls_receive',
  'files_send',
  'files_receive',
  'images_send',
  'images_receive',
  'voice_send',
  'voice_receive',
  'videos_send',
  'videos_receive',
  'emoji_send',
  'emoji_receive',
] as const;

export type ImCounter = (typeof IM_COUNTERS)[number];

/** One user's instant-messaging counts on one day. */
export interface ImDayActivity {
  user_id: string;
  /** `yyyy-mm-dd`, UTC. */
  date: string;
  counts: Record<ImCounter, number>;
}
