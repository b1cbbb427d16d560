import { V2 } from '../../v2-contract/v2-routes.js';
import { invalidParameter } from '../../v1/errors.js';
import { defineEndpoint } from '../kit/define.js';
import { v1, v1Params } from '../../v1/param-types.js';
import { userId } from './user-params.js';

/**
 * /user/uploadpicture: the v1 multipart `pic_file` is passed on as the `pic_file` field of a
 * multipart POST /users/{userId}/picture. v1 took jpg/jpeg only: a file whose name says
 * otherwise, or whose content is not a JPEG, is refused here without calling v2.
 */

const JPEG_NAME = /\.(jpe?g)$/i;
const isJpeg = (bytes: Uint8Array) => bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

export const userUploadPicture = defineEndpoint({
  path: '/user/uploadpicture',
  params: v1Params({ id: userId(), pic_file: v1.file() }),
  v2Calls: [V2.users.uploadPicture],
  async handle({ id, pic_file }, ctx) {
    const bytes = new Uint8Array(await pic_file.arrayBuffer());
    const namedOtherwise = /\.[^.]+$/.test(pic_file.name) && !JPEG_NAME.test(pic_file.name);
    if (namedOtherwise || !isJpeg(bytes)) throw invalidParameter('pic_file', 'Must be a jpg/jpeg file.');
    const form = new FormData();
    form.append('pic_file', new File([bytes], pic_file.name || 'picture.jpg', { type: 'image/jpeg' }));
    await ctx.v2.upload(V2.users.uploadPicture.at(id), form);
    return { id, updated_at: ctx.nowIso() };
  },
});
