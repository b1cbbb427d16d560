/**
 * Meetings and webinars share one table (their numbers are unique across both) and one shape:
 * `kind` tells them apart. Field names are the v2 ones.
 * Owned by the meetings area (src/sandbox/meetings/); post-meeting data (instances, participants,
 * recordings, polls, Q&A) is written by the control API (src/sandbox/control/).
 */

export type MeetingKind = 'meeting' | 'webinar';

export interface Recurrence {
  type: 1 | 2 | 3;
  repeat_interval?: number;
  weekly_days?: string;
  monthly_day?: number;
  monthly_week?: -1 | 1 | 2 | 3 | 4;
  monthly_week_day?: number;
  end_times?: number;
  end_date_time?: string;
}

export interface Occurrence {
  occurrence_id: string;
  start_time: string;
  duration: number;
  status: 'available' | 'deleted';
}

export type RegistrantStatus = 'pending' | 'approved' | 'denied' | 'cancelled';

export interface Registrant {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  address: string;
  city: string;
  country: string;
  zip: string;
  state: string;
  phone: string;
  industry: string;
  org: string;
  job_title: string;
  purchasing_time_frame: string;
  role_in_purchase_process: string;
  no_of_employees: string;
  comments: string;
  custom_questions: { title: string; value: string }[];
  status: RegistrantStatus;
  create_time: string;
  join_url: string;
  /** Occurrences registered for; empty means all. */
  occurrence_ids: string[];
}

export interface Panelist {
  id: string;
  name: string;
  email: string;
  join_url: string;
}

export interface Participant {
  id: string;
  user_id: string;
  name: string;
  user_email: string;
  join_time: string;
  leave_time: string | null;
  /** Seconds in the session. */
  duration: number;
  registrant_id: string;
  /** What the participant's client reported (device, network, version): set through the control API. */
  client?: ParticipantClient;
  /** Quality-of-service samples the client sent, oldest first: set through the control API. */
  qos?: QosSample[];
}

/**
 * The participant's client as the dashboard shows it. `location` is v2's `City (CC)`. A sandbox
 * participant has none until the control API says what it joined from: nothing here is invented.
 */
export interface ParticipantClient {
  device: string;
  ip_address: string;
  location: string;
  network_type: string;
  version: string;
}

/** One stream's quality; empty strings where the stream did not flow (v2's `QOS Object`). */
export interface QosStream {
  bitrate: string;
  latency: string;
  jitter: string;
  avg_loss: string;
  max_loss: string;
  resolution?: string;
  frame_rate?: string;
}

/** One QoS sample of a participant (v2's `user_qos`). */
export interface QosSample {
  date_time: string;
  audio_input: QosStream;
  audio_output: QosStream;
  video_input: QosStream;
  video_output: QosStream;
  as_input: QosStream;
  as_output: QosStream;
  cpu_usage: { zoom_min_cpu_usage: string; zoom_avg_cpu_usage: string; zoom_max_cpu_usage: string; system_max_cpu_usage: string };
}

export interface RecordingFile {
  id: string;
  meeting_id: string;
  recording_start: string;
  recording_end: string;
  file_type: 'MP4' | 'M4A' | 'TIMELINE' | 'TRANSCRIPT' | 'CHAT';
  file_size: number;
  play_url: string;
  download_url: string;
  status: 'completed' | 'processing';
  recording_type: string;
}

export interface PollAnswer {
  name: string;
  email: string;
  question_details: { question: string; answer: string }[];
}

export interface QuestionAnswer {
  name: string;
  email: string;
  question_details: { question: string; answer: string }[];
}

/** One time a meeting or webinar happened (or is happening: `end_time` null). */
export interface Instance {
  uuid: string;
  start_time: string;
  end_time: string | null;
  participants: Participant[];
  recording_files: RecordingFile[];
  polls: PollAnswer[];
  questions: QuestionAnswer[];
  /** Telephone (dial-in or dial-out) legs, set through the control API: only a phone network makes one. */
  phone_legs?: PhoneLeg[];
  /**
   * The recording files were made by a meeting connector on the account's premises, not in the
   * cloud (control API): they list under GET /users/{userId}/recordings?mc=true only.
   */
  recorded_by_connector?: boolean;
}

/** One telephone leg of an instance, as GET /report/telephone bills it. */
export interface PhoneLeg {
  /** The caller's number (call-in) or the number the service dialled (call-out). */
  phone_number: string;
  /** The service's dial-in number the caller rang; empty for a call-out. */
  call_in_number: string;
  country_name: string;
  start_time: string;
  end_time: string;
  /** What the leg cost, in the account's billing currency. */
  total: number;
}

export interface Meeting {
  kind: MeetingKind;
  id: number;
  /** The uuid of the meeting as scheduled; each instance gets its own. */
  uuid: string;
  host_id: string;
  account_id: string;
  topic: string;
  type: number;
  start_time: string | null;
  duration: number;
  timezone: string;
  password: string;
  h323_password: string;
  /** The passcode as third-party endpoints and the join link's `pwd` carry it; absent without a passcode (and in data kept before it existed). */
  encrypted_password?: string;
  agenda: string;
  created_at: string;
  start_url: string;
  join_url: string;
  recurrence: Recurrence | null;
  settings: Record<string, unknown>;
  occurrences: Occurrence[];
  registrants: Registrant[];
  panelists: Panelist[];
  instances: Instance[];
  /** The instance in progress, if the meeting is live (also the last entry of `instances`). */
  live: Instance | null;
}
