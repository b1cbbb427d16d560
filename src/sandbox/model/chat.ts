/** An instant-messaging chat session of an account, and what was said in it (the sandbox's own model). */
export interface ChatMessage {
  message: string;
  /** The sender's email, as the service reports it. */
  sender: string;
  /** `2012-11-25T12:00:00Z`. */
  date_time: string;
}

export interface ChatSession {
  session_id: string;
  account_id: string;
  /** `Group` (a channel) or `1:1`, the two types the service reports. */
  type: 'Group' | '1:1';
  /** The group's name; empty for a one-to-one chat. */
  name: string;
  /**
   * Emails of members besides those who wrote in it (Team Chat lists a user's sessions by
   * membership); absent in sessions made before members could be named.
   */
  members?: string[];
  /** Oldest first. */
  messages: ChatMessage[];
}
