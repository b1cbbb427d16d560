import type { SandboxApp, SandboxContext } from '../context.js';
import { invalidField } from '../errors.js';
import { opaqueId } from '../ids.js';
import { pathUser } from './path.js';

/**
 * POST /users/{userId}/picture: a multipart form whose `pic_file` field is a JPEG (the reference:
 * "must be a jpg/jpeg file"). The content decides, not the name: a JPEG starts with FF D8 FF.
 */

export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
/** Room for the multipart framing and other small fields around the file. */
const MAX_FORM_BYTES = MAX_PICTURE_BYTES + 64 * 1024;

const badPicture = (message: string) => invalidField('pic_file', message);

const isJpeg = (bytes: Uint8Array) => bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

export function registerPictureRoutes(app: SandboxApp, { state, publicUrl }: SandboxContext): void {
  app.post('/users/:userId/picture', async (c) => {
    const user = pathUser(c, state);
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
      throw badPicture('Required: send the picture as the pic_file field of a multipart/form-data body.');
    }
    // Refuse an oversized upload before reading it.
    if (Number(c.req.header('content-length') ?? 0) > MAX_FORM_BYTES) throw badPicture('Must be at most 2 MB.');
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw badPicture('Required: the multipart/form-data body could not be read.');
    }
    const file = form.pic_file;
    if (!(file instanceof File)) throw badPicture('Required: a file.');
    if (file.size > MAX_PICTURE_BYTES) throw badPicture('Must be at most 2 MB.');
    const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase();
    if (extension !== undefined && extension !== 'jpg' && extension !== 'jpeg') throw badPicture('Must be a jpg/jpeg file.');
    if (!isJpeg(new Uint8Array(await file.arrayBuffer()))) throw badPicture('Must be a jpg/jpeg file.');
    // A new url per upload, so caches of the old picture do not hide the new one.
    user.pic_url = `${publicUrl}/p/${user.id}/${opaqueId()}.jpg`;
    return c.body(null, 201, { 'Content-Location': user.pic_url });
  });
}
