import type { User, UserType } from '../model/user.js';

/** How the service names a user in meeting data: first and last name, or the email when both are empty. */
export function displayName(user: User): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.email;
}

/** The dashboard's label for a user type (`user_type` of the metrics endpoints). */
export const USER_TYPE_LABEL: Record<UserType, string> = { 1: 'Basic', 2: 'Pro', 4: 'Unassigned', 99: 'None' };
