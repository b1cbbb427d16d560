/*
 * Offline browser meeting SDK 1.9.1 (v1gate sandbox). Defines the global `MeetingSdk` with the
 * 1.9.1 surface (docs: browser-sdk-1.9.1.md) and plays it against the embedded sandbox's
 * /sandbox/sdk routes, so a page joins the same meetings the v2 API and the v1 gateway report on.
 * No audio, video or sharing: the view is a plain list of who is in the meeting.
 *
 * Every callback gets the spec's callback object {method, status, errorCode, errorMessage, result}.
 * A plain script (no modules, no build step) so a page can load it with one script tag.
 */
(function (global) {
  'use strict';

  var VERSION = '1.9.1';
  var BUILD = 6331; // the 1.9.1 bundle's media build; its library files carry this prefix
  var POLL_MS = 250;
  var script = document.currentScript;
  // Routes live beside the script: <origin>/sandbox/sdk/1.9.1/meeting-sdk.js → <origin>/sandbox/sdk
  var SDK_BASE = script && script.src ? script.src.replace(/\/1\.9\.1\/meeting-sdk\.js(\?.*)?$/, '') : '/sandbox/sdk';

  var MESSAGES = {
    0: 'invoke function success',
    1: 'invoke function error',
    2: 'must init first',
    3003: 'not host',
    4003: 'invalid parameter',
  };
  var EVENTS = ['onUserJoin', 'onUserLeave', 'onUserIsInWaitingRoom', 'onMeetingStatus'];
  var MEETING_STATUS = { connecting: 1, connected: 2, disconnected: 3, reconnecting: 4 };
  var LANGS = ['de-DE', 'es-ES', 'en-US', 'fr-FR', 'jp-JP', 'pt-PT', 'ru-RU', 'zh-CN', 'zh-TW', 'ko-KO', 'vi-VN', 'it-IT'];
  var MEETING_INFO = ['topic', 'host', 'mn', 'pwd', 'telPwd', 'invite', 'participant', 'dc', 'enctype', 'report'];

  var INIT_DEFAULTS = {
    debug: false,
    showMeetingHeader: true,
    disableInvite: false,
    disableCallOut: false,
    disableRecord: false,
    disableJoinAudio: false,
    audioPanelAlwaysOpen: false,
    isSupportAV: true,
    isSupportChat: true,
    isSupportQA: true,
    isSupportCC: true,
    isSupportPolling: true,
    isSupportBreakout: true,
    isSupportNonverbal: true,
    screenShare: true,
    rwcBackup: '',
    videoDrag: true,
    sharingMode: 'both',
    videoHeader: true,
    isLockBottom: true,
    isShowJoiningErrorDialog: true,
    inviteUrlFormat: '',
    disableVoIP: false,
    disableReport: false,
  };

  var state = {
    inited: false,
    options: null,
    libPath: null,
    avPath: '/av',
    lang: 'en-US',
    show: { invite: true, header: true, record: true, callout: true, joinAudio: true, pureSharing: false },
    listeners: {},
    session: null,
    joinInfo: null,
    view: null,
    timer: null,
    invites: [],
  };

  // ---- callbacks ------------------------------------------------------------------------------

  function respond(options, method, errorCode, result, errorMessage) {
    var ok = errorCode === 0;
    var answer = {
      method: method,
      status: ok,
      errorCode: errorCode,
      errorMessage: errorMessage || MESSAGES[errorCode] || (ok ? MESSAGES[0] : MESSAGES[1]),
      result: result === undefined ? null : result,
    };
    log(method, answer);
    var callback = options && (ok ? options.success : options.error);
    if (typeof callback === 'function') callback(answer);
    return answer;
  }

  function log() {
    if (state.options && state.options.debug && global.console)
      global.console.log.apply(global.console, ['[MeetingSdk]'].concat([].slice.call(arguments)));
  }

  function emit(event, data) {
    (state.listeners[event] || []).slice().forEach(function (callback) {
      try {
        callback(data);
      } catch (e) {
        setTimeout(function () {
          throw e;
        });
      }
    });
  }

  /** Checks shared by calls that need init first and a joined meeting. */
  function guard(options, method, needsMeeting) {
    if (!state.inited) {
      respond(options, method, 2);
      return false;
    }
    if (needsMeeting && !state.session) {
      respond(options, method, 1, null, 'not in a meeting');
      return false;
    }
    return true;
  }

  function isBool(v) {
    return typeof v === 'boolean';
  }
  function isInt(v) {
    return typeof v === 'number' && Math.floor(v) === v && isFinite(v);
  }

  // ---- talking to the sandbox ------------------------------------------------------------------

  function request(method, path, body) {
    return fetch(SDK_BASE + path, {
      method: method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(
      function (response) {
        return response.json().then(function (data) {
          if (!response.ok) throw { errorCode: data.errorCode || 1, errorMessage: data.errorMessage || data.message || 'request failed' };
          return data;
        });
      },
      function () {
        throw { errorCode: 403, errorMessage: 'offline' };
      },
    );
  }

  /** An in-meeting action: POST to the session, callback with its result, view refreshed. */
  function act(options, method, action, body, check) {
    options = options || {};
    if (!guard(options, method, true)) return;
    if (check) {
      var problem = check();
      if (problem) return respond(options, method, 4003, null, 'invalid parameter: ' + problem);
    }
    request('POST', '/sessions/' + encodeURIComponent(state.session) + '/' + action, body || {}).then(
      function (data) {
        respond(options, method, 0, data.result);
        update(data.view);
      },
      function (e) {
        respond(options, method, e.errorCode, null, e.errorMessage);
      },
    );
  }

  function startPolling() {
    stopPolling();
    state.timer = setInterval(function () {
      if (!state.session) return stopPolling();
      request('GET', '/sessions/' + encodeURIComponent(state.session)).then(update, function () {
        /* next poll tries again */
      });
    }, POLL_MS);
  }

  function stopPolling() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
  }

  /** A new view from the sandbox: events for what changed since the last one, then a re-render. */
  function update(next) {
    var previous = state.view;
    if (!state.session || !next) return;
    state.view = next;
    var before = previous && previous.status === 'in' ? previous.attendees : [];
    var after = next.status === 'in' ? next.attendees : [];
    if (previous && previous.status === 'waiting' && next.status === 'in') emit('onMeetingStatus', { status: MEETING_STATUS.connected });
    if (previous && previous.status === 'in') {
      diff(after, before).forEach(function (user) {
        emit('onUserJoin', user);
      });
      diff(before, after).forEach(function (user) {
        emit('onUserLeave', user);
      });
    }
    var waitingBefore = previous
      ? previous.waitingRoom.map(function (w) {
          return w.userName;
        })
      : [];
    next.waitingRoom.forEach(function (w) {
      if (waitingBefore.indexOf(w.userName) < 0) emit('onUserIsInWaitingRoom', w);
    });
    if (next.status === 'waiting' && (!previous || previous.status !== 'waiting')) {
      emit('onUserIsInWaitingRoom', { userId: null, userName: state.joinInfo.userName, self: true });
    }
    render();
    if (next.status === 'removed' || next.status === 'ended' || next.status === 'left') finish(next.status);
  }

  function diff(a, b) {
    var ids = b.map(function (u) {
      return u.userId;
    });
    return a.filter(function (u) {
      return ids.indexOf(u.userId) < 0;
    });
  }

  /** The meeting is over for this page: disconnected; leaving or an ending meeting opens leaveUrl. */
  function finish(how) {
    stopPolling();
    state.session = null;
    emit('onMeetingStatus', { status: MEETING_STATUS.disconnected });
    if (how === 'removed') {
      notice(3009, 'You have been removed from the meeting.');
      return;
    }
    var leaveUrl = state.options && state.options.leaveUrl;
    if (leaveUrl)
      setTimeout(function () {
        global.location.href = leaveUrl;
      }, 50);
  }

  // ---- generateSignature: SHA-256, HMAC and base64, synchronous as the SDK's call is -----------

  function utf8(text) {
    return Array.prototype.slice.call(new TextEncoder().encode(text));
  }

  var K = [];
  (function () {
    var n = 2,
      found = 0;
    while (found < 64) {
      var prime = true;
      for (var d = 2; d * d <= n; d++)
        if (n % d === 0) {
          prime = false;
          break;
        }
      if (prime) K[found++] = ((Math.pow(n, 1 / 3) % 1) * 4294967296) | 0;
      n++;
    }
  })();

  function sha256(bytes) {
    var H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var data = bytes.concat([0x80]);
    while (data.length % 64 !== 56) data.push(0);
    var bits = bytes.length * 8;
    var high = Math.floor(bits / 4294967296); // the length is 64 bits, big-endian
    data.push((high >>> 24) & 255, (high >>> 16) & 255, (high >>> 8) & 255, high & 255);
    data.push((bits >>> 24) & 255, (bits >>> 16) & 255, (bits >>> 8) & 255, bits & 255);
    var W = new Array(64);
    for (var i = 0; i < data.length; i += 64) {
      for (var t = 0; t < 16; t++)
        W[t] = (data[i + 4 * t] << 24) | (data[i + 4 * t + 1] << 16) | (data[i + 4 * t + 2] << 8) | data[i + 4 * t + 3];
      for (t = 16; t < 64; t++) {
        var a15 = W[t - 15],
          a2 = W[t - 2];
        var s0 = ((a15 >>> 7) | (a15 << 25)) ^ ((a15 >>> 18) | (a15 << 14)) ^ (a15 >>> 3);
        var s1 = ((a2 >>> 17) | (a2 << 15)) ^ ((a2 >>> 19) | (a2 << 13)) ^ (a2 >>> 10);
        W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
      }
      var a = H[0],
        b = H[1],
        c = H[2],
        d = H[3],
        e = H[4],
        f = H[5],
        g = H[6],
        h = H[7];
      for (t = 0; t < 64; t++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      H = [(H[0] + a) | 0, (H[1] + b) | 0, (H[2] + c) | 0, (H[3] + d) | 0, (H[4] + e) | 0, (H[5] + f) | 0, (H[6] + g) | 0, (H[7] + h) | 0];
    }
    var out = [];
    H.forEach(function (word) {
      out.push((word >>> 24) & 255, (word >>> 16) & 255, (word >>> 8) & 255, word & 255);
    });
    return out;
  }

  function hmacSha256(key, message) {
    if (key.length > 64) key = sha256(key);
    var inner = [],
      outer = [];
    for (var i = 0; i < 64; i++) {
      var k = key[i] || 0;
      inner.push(k ^ 0x36);
      outer.push(k ^ 0x5c);
    }
    return sha256(outer.concat(sha256(inner.concat(message))));
  }

  function base64(bytes) {
    var text = '';
    for (var i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.slice(i, i + 0x8000));
    return btoa(text);
  }

  function base64url(bytes) {
    return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  // ---- the view --------------------------------------------------------------------------------

  function root() {
    var el = document.getElementById('zmmtg-root');
    if (!el) {
      el = document.createElement('div');
      el.id = 'zmmtg-root';
      document.body.appendChild(el);
    }
    return el;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      node.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function shown(name) {
    return (state.options ? state.options.meetingInfo : MEETING_INFO).indexOf(name) >= 0;
  }

  function render() {
    var container = root();
    container.innerHTML = '';
    container.setAttribute('lang', state.lang);
    var v = state.view;
    if (!v) return;
    container.setAttribute('data-status', v.status);
    if (state.show.header) {
      var header = el('header', { class: 'meeting-header' });
      if (shown('topic')) header.appendChild(el('span', { class: 'meeting-topic' }, v.meeting.meetingTopic));
      if (shown('mn')) header.appendChild(el('span', { class: 'meeting-number' }, String(v.meeting.meetingNumber)));
      container.appendChild(header);
    }
    if (v.status === 'waiting') {
      container.appendChild(el('p', { class: 'waiting-room' }, 'Please wait, the meeting host will let you in soon.'));
      return;
    }
    var toolbar = el('div', { class: 'meeting-toolbar' });
    if (state.show.joinAudio && !state.options.disableJoinAudio)
      toolbar.appendChild(el('button', { 'data-function': 'join-audio' }, 'Join Audio'));
    if (state.show.invite && !state.options.disableInvite) toolbar.appendChild(el('button', { 'data-function': 'invite' }, 'Invite'));
    if (state.show.record && !state.options.disableRecord)
      toolbar.appendChild(el('button', { 'data-function': 'record' }, v.meeting.recording ? 'Stop Recording' : 'Record'));
    if (state.show.callout && !state.options.disableCallOut) toolbar.appendChild(el('button', { 'data-function': 'call-out' }, 'Call Out'));
    container.appendChild(toolbar);
    if (v.meeting.locked) container.appendChild(el('p', { class: 'meeting-locked' }, 'Meeting locked'));
    var list = el('ul', { class: 'attendees' });
    v.attendees.forEach(function (a) {
      var item = el('li', { 'data-user-id': String(a.userId), 'data-muted': String(a.muted) });
      item.appendChild(el('span', { class: 'name' }, a.userName));
      if (a.isHost) item.appendChild(el('span', { class: 'role' }, ' (Host)'));
      item.appendChild(el('span', { class: 'audio' }, a.muted ? ' muted' : ' unmuted'));
      list.appendChild(item);
    });
    container.appendChild(list);
  }

  /** The joining-error dialog (isShowJoiningErrorDialog) and the removed notice, in the modal container. */
  function notice(code, message) {
    var modal = document.getElementById('aria-notify-area') || root();
    var dialog = el('div', { role: 'alertdialog', class: 'sdk-notice', 'data-error-code': String(code) }, message + ' (' + code + ')');
    modal.appendChild(dialog);
  }

  // ---- the API ---------------------------------------------------------------------------------

  var MeetingSdk = {
    /** The spec's quick test helper (production signing belongs on a back end: POST /sdk/signature). */
    generateSignature: function (options) {
      options = options || {};
      var fields = ['apiKey', 'apiSecret', 'meetingNumber'];
      var bad = fields.filter(function (k) {
        return (typeof options[k] !== 'string' && typeof options[k] !== 'number') || String(options[k]) === '';
      });
      if (options.role !== 0 && options.role !== 1 && options.role !== '0' && options.role !== '1') bad.push('role');
      if (bad.length) {
        respond(options, 'generateSignature', 4003, null, 'invalid parameter: ' + bad.join(', '));
        return undefined;
      }
      var ts = Date.now() - 30000; // the SDK's allowance for a client clock ahead of the service's
      var key = String(options.apiKey),
        number = String(options.meetingNumber),
        role = String(options.role);
      var msg = base64(utf8(key + number + ts + role));
      var hash = base64(hmacSha256(utf8(String(options.apiSecret)), utf8(msg)));
      var signature = base64url(utf8([key, number, ts, role, hash].join('.')));
      respond(options, 'generateSignature', 0, signature);
      return signature;
    },

    checkSystemRequirements: function (options) {
      var print = !options || options.print !== false;
      var ua = global.navigator ? global.navigator.userAgent : '';
      if (typeof fetch !== 'function' || typeof Promise !== 'function') return false;
      var match = /(Chrome|Firefox|Safari|Edg)\/([\d.]+)/.exec(ua);
      var result = {
        browserInfo: ua,
        browserName: match ? match[1] : 'Unknown',
        browserVersion: match ? match[2] : '',
        features: [
          'viewSharing',
          'computerAudio',
          'computerVideo',
          'callIn',
          'callOut',
          'chat',
          'closedCaption',
          'QA',
          'POLLING',
          'BREAKOUT',
        ],
      };
      if (print && global.console) global.console.info('[MeetingSdk] system requirements', result);
      return result;
    },

    getWebSDKVersion: function () {
      return [VERSION, VERSION + ' offline sandbox', BUILD];
    },

    setVendorJSLib: function (libPath, avPath) {
      if (typeof libPath === 'string') state.libPath = libPath.replace(/\/$/, '');
      if (typeof avPath === 'string') state.avPath = avPath;
    },

    /** No wasm offline: nothing to preload. */
    preLoadWasm: function () {},

    prepareJssdk: function () {
      var lib = state.libPath || SDK_BASE + '/' + VERSION + '/lib';
      var isIE = /Trident|MSIE/.test(global.navigator ? global.navigator.userAgent : '');
      [BUILD + '_webim.min.js', BUILD + (isIE ? '_js_media_ie.min.js' : '_js_media.min.js')].forEach(function (file) {
        var tag = document.createElement('script');
        tag.src = lib + state.avPath + '/' + file;
        document.head.appendChild(tag);
      });
      root();
      if (!document.getElementById('aria-notify-area')) {
        var modal = el('div', { id: 'aria-notify-area' });
        document.body.appendChild(modal);
      }
    },

    init: function (options) {
      options = options || {};
      if (typeof options.leaveUrl !== 'string' || options.leaveUrl === '')
        return respond(options, 'init', 4003, null, 'invalid parameter: leaveUrl is required');
      if (options.meetingInfo !== undefined && !Array.isArray(options.meetingInfo))
        return respond(options, 'init', 4003, null, 'invalid parameter: meetingInfo');
      var merged = {};
      Object.keys(INIT_DEFAULTS).forEach(function (k) {
        merged[k] = INIT_DEFAULTS[k];
      });
      Object.keys(options).forEach(function (k) {
        if (k !== 'success' && k !== 'error') merged[k] = options[k];
      });
      merged.meetingInfo = options.meetingInfo || MEETING_INFO.slice();
      merged.loginWindow = {
        width: (options.loginWindow && options.loginWindow.width) || 400,
        height: (options.loginWindow && options.loginWindow.height) || 380,
      };
      state.options = merged;
      state.show.header = merged.showMeetingHeader !== false;
      if (isBool(merged.showPureSharingContent)) state.show.pureSharing = merged.showPureSharingContent;
      state.inited = true;
      return respond(options, 'init', 0);
    },

    join: function (options) {
      options = options || {};
      if (!guard(options, 'join', false)) return;
      if (state.session) return respond(options, 'join', 3000, null, 'web has in progress');
      var number = options.meetingNumber;
      if (!(isInt(number) || (typeof number === 'string' && /^\d{1,12}$/.test(number))))
        return respond(options, 'join', 4003, null, 'invalid parameter: meetingNumber');
      // A 1.9.1 signature comes with its apiKey; today's JWT signature with its sdkKey.
      var keyField = typeof options.sdkKey === 'string' && options.sdkKey !== '' ? 'sdkKey' : 'apiKey';
      var missing = ['userName', 'signature', keyField].filter(function (k) {
        return typeof options[k] !== 'string' || options[k] === '';
      });
      if (options.passWord !== undefined && typeof options.passWord !== 'string') missing.push('passWord');
      if (missing.length) return respond(options, 'join', 4003, null, 'invalid parameter: ' + missing.join(', '));
      var body = { meetingNumber: number, userName: options.userName, signature: options.signature };
      body[keyField] = options[keyField];
      ['userEmail', 'passWord', 'zak', 'obfToken'].forEach(function (k) {
        if (typeof options[k] === 'string' && options[k] !== '') body[k] = options[k];
      });
      state.joinInfo = { userName: options.userName, meetingNumber: Number(number) };
      emit('onMeetingStatus', { status: MEETING_STATUS.connecting });
      request('POST', '/join', body).then(
        function (data) {
          state.session = data.session;
          state.view = null;
          update(data.view);
          if (data.status === 'in') emit('onMeetingStatus', { status: MEETING_STATUS.connected });
          startPolling();
          respond(options, 'join', 0, { status: data.status, role: data.role });
        },
        function (e) {
          emit('onMeetingStatus', { status: MEETING_STATUS.disconnected });
          if (state.options.isShowJoiningErrorDialog) notice(e.errorCode, e.errorMessage);
          respond(options, 'join', e.errorCode, null, e.errorMessage);
        },
      );
    },

    showInviteFunction: toggle('invite'),
    showMeetingHeader: toggle('header'),
    showRecordFunction: toggle('record'),
    showCalloutFunction: toggle('callout'),
    showJoinAudioFunction: toggle('joinAudio'),
    showPureSharingContent: toggle('pureSharing'),

    getAttendeeslist: function (options) {
      options = options || {};
      if (!guard(options, 'getAttendeeslist', true)) return;
      if (state.view.meeting.isWebinar) return respond(options, 'getAttendeeslist', 1, null, 'meetings only');
      return respond(options, 'getAttendeeslist', 0, { attendeesList: state.view.attendees.slice() });
    },

    getBreakoutRoomList: function (options) {
      options = options || {};
      if (!guard(options, 'getBreakoutRoomList', true)) return;
      if (state.view.meeting.isWebinar) return respond(options, 'getBreakoutRoomList', 1, null, 'meetings only');
      return respond(options, 'getBreakoutRoomList', 0, { rooms: [], unassignedAttendeeList: state.view.attendees.slice() });
    },

    getCurrentUser: function (options) {
      options = options || {};
      if (!guard(options, 'getCurrentUser', true)) return;
      return respond(options, 'getCurrentUser', 0, { currentUser: state.view.currentUser });
    },

    getCurrentMeetingInfo: function (options) {
      options = options || {};
      if (!guard(options, 'getCurrentMeetingInfo', true)) return;
      var m = state.view.meeting;
      return respond(options, 'getCurrentMeetingInfo', 0, {
        meetingNumber: m.meetingNumber,
        meetingTopic: m.meetingTopic,
        isWebinar: m.isWebinar,
        uuid: m.uuid,
        locked: m.locked,
        isRecording: m.recording,
        status: state.view.status,
      });
    },

    inMeetingServiceListener: function (event, callback) {
      if (EVENTS.indexOf(event) < 0 || typeof callback !== 'function') return;
      (state.listeners[event] = state.listeners[event] || []).push(callback);
    },

    mute: function (options) {
      options = options || {};
      act(options, 'mute', 'mute', { userId: options.userId, mute: options.mute }, function () {
        return !isInt(options.userId) ? 'userId' : !isBool(options.mute) ? 'mute' : null;
      });
    },

    muteAll: function (options) {
      options = options || {};
      act(options, 'muteAll', 'muteAll', { muteAll: options.muteAll }, function () {
        return isBool(options.muteAll) ? null : 'muteAll';
      });
    },

    rename: function (options) {
      options = options || {};
      act(options, 'rename', 'rename', { userId: options.userId, oldName: options.oldName, newName: options.newName }, function () {
        return !isInt(options.userId)
          ? 'userId'
          : typeof options.oldName !== 'string'
            ? 'oldName'
            : typeof options.newName !== 'string' || !options.newName
              ? 'newName'
              : null;
      });
    },

    expel: function (options) {
      options = options || {};
      act(options, 'expel', 'expel', { userId: options.userId }, function () {
        return isInt(options.userId) ? null : 'userId';
      });
    },

    putOnHold: function (options) {
      options = options || {};
      act(options, 'putOnHold', 'putOnHold', { userId: options.userId, hold: options.hold }, function () {
        return !isInt(options.userId) ? 'userId' : !isBool(options.hold) ? 'hold' : null;
      });
    },

    record: function (options) {
      options = options || {};
      if (state.options && state.options.disableRecord) return respond(options, 'record', 1, null, 'recording is disabled');
      act(options, 'record', 'record', { record: options.record }, function () {
        return isBool(options.record) ? null : 'record';
      });
    },

    lockMeeting: function (options) {
      options = options || {};
      act(options, 'lockMeeting', 'lockMeeting', { lockMeeting: options.lockMeeting }, function () {
        return isBool(options.lockMeeting) ? null : 'lockMeeting';
      });
    },

    leaveMeeting: function (options) {
      act(options || {}, 'leaveMeeting', 'leave', {});
    },

    endMeeting: function (options) {
      act(options || {}, 'endMeeting', 'end', {});
    },

    // Phone and room-device invitations: checked and remembered, nobody is dialled offline.
    callOut: function (options) {
      options = options || {};
      if (!guard(options, 'callOut', true)) return;
      if (state.options.disableCallOut) return respond(options, 'callOut', 1, null, 'call out is disabled');
      if (!phone(options.phoneNumber)) return respond(options, 'callOut', 4003, null, 'invalid parameter: phoneNumber');
      state.invites.push({ kind: 'callOut', phoneNumber: options.phoneNumber });
      return respond(options, 'callOut', 0, { phoneNumber: options.phoneNumber });
    },

    inviteByPhone: function (options) {
      options = options || {};
      if (!guard(options, 'inviteByPhone', true)) return;
      if (state.options.disableInvite) return respond(options, 'inviteByPhone', 1, null, 'invite is disabled');
      if (!phone(options.phoneNumber)) return respond(options, 'inviteByPhone', 4003, null, 'invalid parameter: phoneNumber');
      if (typeof options.userName !== 'string' || !options.userName)
        return respond(options, 'inviteByPhone', 4003, null, 'invalid parameter: userName');
      state.invites.push({ kind: 'inviteByPhone', phoneNumber: options.phoneNumber, userName: options.userName });
      return respond(options, 'inviteByPhone', 0, { phoneNumber: options.phoneNumber, userName: options.userName });
    },

    inviteCRCDevice: function (options) {
      options = options || {};
      if (!guard(options, 'inviteCRCDevice', true)) return;
      if (typeof options.ip !== 'string' || !options.ip) return respond(options, 'inviteCRCDevice', 4003, null, 'invalid parameter: ip');
      if (!isInt(options.type)) return respond(options, 'inviteCRCDevice', 4003, null, 'invalid parameter: type');
      state.invites.push({ kind: 'inviteCRCDevice', ip: options.ip, type: options.type });
      return respond(options, 'inviteCRCDevice', 0, { ip: options.ip, type: options.type });
    },

    cancelInviteCRCDevice: function (options) {
      options = options || {};
      if (!guard(options, 'cancelInviteCRCDevice', true)) return;
      return respond(options, 'cancelInviteCRCDevice', 0);
    },

    reRender: function (options) {
      options = options || {};
      if (!guard(options, 'reRender', false)) return;
      if (LANGS.indexOf(options.lang) < 0) return respond(options, 'reRender', 4003, null, 'invalid parameter: lang');
      state.lang = options.lang;
      render();
      return respond(options, 'reRender', 0, { lang: state.lang });
    },
  };

  function toggle(name) {
    return function (options) {
      state.show[name] = !options || options.show !== false;
      render();
    };
  }

  function phone(value) {
    return typeof value === 'string' && /^\+?[\d\s-]{3,20}$/.test(value);
  }

  global.MeetingSdk = MeetingSdk;
})(window);
