/**
 * What a recording file is answered as when v2's own answer does not say (HEAD and 304 are answered
 * from v2's file list alone): its media type and its file name's extension, by v2's `file_type`.
 */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  MP4: 'video/mp4',
  M4A: 'audio/mp4',
  TIMELINE: 'application/json',
  TRANSCRIPT: 'text/vtt',
  CC: 'text/vtt',
  CHAT: 'text/plain',
  CSV: 'text/csv',
  SUMMARY: 'application/json',
};

const EXTENSIONS: Readonly<Record<string, string>> = {
  MP4: 'mp4',
  M4A: 'm4a',
  TIMELINE: 'json',
  TRANSCRIPT: 'vtt',
  CC: 'vtt',
  CHAT: 'txt',
  CSV: 'csv',
  SUMMARY: 'json',
};

export function mediaTypeOf(fileType: string | undefined): string {
  return (fileType !== undefined && MEDIA_TYPES[fileType]) || 'application/octet-stream';
}

/** `attachment; filename="{file id}.{extension}"`, the name v2 gives its downloads. */
export function dispositionOf(fileId: string, fileType: string | undefined, fileExtension: string | undefined): string {
  const extension = fileExtension?.toLowerCase() ?? (fileType !== undefined ? EXTENSIONS[fileType] : undefined);
  const name = `${fileId}${extension ? `.${extension}` : ''}`.replace(/["\\\r\n]/g, '_');
  return `attachment; filename="${name}"`;
}
