/** The v2 meeting / webinar object, as GET /meetings/{id} and POST /users/{userId}/meetings answer it. */
export interface V2Session {
  uuid: string;
  id: number;
  host_id: string;
  topic: string;
  type: number;
  start_time?: string;
  duration?: number;
  timezone?: string;
  created_at: string;
  agenda?: string;
  start_url: string;
  join_url: string;
  password?: string;
  h323_password?: string;
  occurrences?: { occurrence_id: number | string; start_time: string; duration: number; status: string }[];
  settings?: Record<string, unknown>;
}

/** A v2 list item (GET /users/{userId}/meetings|webinars): only the id is used, to read the full object. */
export interface V2SessionListItem {
  id: number;
}
