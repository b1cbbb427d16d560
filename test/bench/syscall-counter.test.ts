import { describe, expect, it } from 'vitest';
import { countLines } from '../../bench/syscall-counter.js';

/** Lines as `strace -f -yy` wrote them for a gateway at port 40285 calling v2 at 33683, its standard output a socket pair. */
const TRACE = [
  '28627 read(20<TCP:[127.0.0.1:40285->127.0.0.1:50440]>, "POST /v1/meeting/create HTTP/1.1\\r\\n"..., 65536) = 420',
  '28627 writev(27<TCP:[127.0.0.1:54638->127.0.0.1:33683]>, [{iov_base="POST /v2/users/x/meetings HTTP/1.1\\r\\n"..., iov_len=498}, {iov_base="{}", iov_len=339}], 2) = 837',
  '28627 read(27<TCP:[127.0.0.1:54638->127.0.0.1:33683]>, "HTTP/1.1 201 Created\\r\\n"..., 65536) = 1020',
  '28627 write(20<TCP:[127.0.0.1:40285->127.0.0.1:50440]>, "HTTP/1.1 200 OK\\r\\n"..., 900) = 900',
  '28635 write(1<UNIX-STREAM:[1691843->1691842]>, "{\\"level\\":30}\\n"..., 4658) = 4658',
  '28634 write(1<pipe:[1691850]>, "{\\"level\\":30}\\n"..., 4100) = 4100',
  '28627 write(3<UNIX-STREAM:[1691847->1691846]>, "{\\"type\\":\\"cpu\\"}\\n", 57) = 57',
  '28635 write(17<anon_inode:[eventfd]>, "\\1\\0\\0\\0\\0\\0\\0\\0", 8) = 8',
  '28627 writev(31<TCPv6:[[::1]:40286->[::1]:33683]>, [{iov_base="GET /v2/users/x HTTP/1.1\\r\\n"..., iov_len=200}], 1) = 200',
  '28628 epoll_pwait(10<anon_inode:[eventpoll]>,  <unfinished ...>',
  '28628 <... epoll_pwait resumed>[{events=EPOLLIN, data={u32=17, u64=17}}], 1024, -1, NULL, 8) = 1',
  '28637 futex(0x566f9c8, FUTEX_WAKE_PRIVATE, 1) = 0',
].join('\n');

describe('the system call counter', () => {
  it('tells the client socket, v2 sockets, the log and the runner’s channel apart', () => {
    const counts = countLines(TRACE, 40285);
    expect(Object.fromEntries(counts)).toEqual({
      'read client socket': 1,
      'write client socket': 1,
      'write v2 socket': 2,
      'read v2 socket': 1,
      // The log's batches, whatever standard output is: a socket pair's inodes are no connection's ports.
      'write log (standard output)': 2,
      'write unix socket': 1,
      'write event loop': 1,
      'poll event loop': 1,
      futex: 1,
    });
  });
});
