import { randomBytes, randomUUID } from 'node:crypto';
import { prefixOf } from '../../shared/route-owners.js';
import type { Instance, Meeting, RecordingFile } from '../model/meeting.js';
import { secondsBetween } from './time.js';

export type RecordingFileType = RecordingFile['file_type'];
export const RECORDING_FILE_TYPES = ['MP4', 'M4A', 'TIMELINE', 'TRANSCRIPT', 'CHAT'] as const satisfies readonly RecordingFileType[];

/** One file asked for; what is left out is filled in the way the service would. */
export interface RecordingFileRequest {
  file_type: RecordingFileType;
  recording_type?: string;
  file_size?: number;
}

/**
 * Which cloud recording an ended instance gets: none (`false`), the service's usual pair of files
 * (`true`: a speaker-view video and an audio-only file), or the files listed.
 */
export type RecordingRequest = boolean | { files?: RecordingFileRequest[] };

/** What the service calls each kind of file unless told otherwise. */
const RECORDING_TYPE_OF: Record<RecordingFileType, string> = {
  MP4: 'shared_screen_with_speaker_view',
  M4A: 'audio_only',
  TIMELINE: 'timeline',
  TRANSCRIPT: 'audio_transcript',
  CHAT: 'chat_file',
};

/** Rough sizes of a real recording per minute, so sizes grow with the meeting like real ones do. */
const BYTES_PER_MINUTE: Record<RecordingFileType, number> = {
  MP4: 2_400_000,
  M4A: 480_000,
  TIMELINE: 2_000,
  TRANSCRIPT: 1_200,
  CHAT: 150,
};

const DEFAULT_FILES: RecordingFileRequest[] = [{ file_type: 'MP4' }, { file_type: 'M4A' }];

/** The cloud recording files of an ended instance (its `end_time` is set). */
export function recordingFilesFor(meeting: Meeting, instance: Instance, request: RecordingRequest): RecordingFile[] {
  if (request === false || instance.end_time === null) return [];
  const files = request === true ? DEFAULT_FILES : (request.files ?? DEFAULT_FILES);
  const minutes = Math.max(1, secondsBetween(instance.start_time, instance.end_time) / 60);
  const origin = originOf(meeting.join_url);
  return files.map((file) => {
    const urlToken = randomBytes(36).toString('base64url');
    return {
      id: randomUUID(),
      // The service names the instance, not the meeting number, as a file's meeting_id.
      meeting_id: instance.uuid,
      recording_start: instance.start_time,
      recording_end: instance.end_time!,
      file_type: file.file_type,
      file_size: file.file_size ?? Math.round(BYTES_PER_MINUTE[file.file_type] * minutes),
      play_url: `${origin}${prefixOf('recordings')}/play/${urlToken}`,
      download_url: `${origin}${prefixOf('recordings')}/download/${urlToken}`,
      status: 'completed',
      recording_type: file.recording_type ?? RECORDING_TYPE_OF[file.file_type],
    };
  });
}

/**
 * Recordings are served from the host that serves the meeting's join url; reading it from there
 * keeps the lifecycle functions free of the sandbox context (the meetings area calls them too).
 */
function originOf(joinUrl: string): string {
  try {
    return new URL(joinUrl).origin;
  } catch {
    return 'https://sandbox.v1gate.local';
  }
}
