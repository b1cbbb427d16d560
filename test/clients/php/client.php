<?php
/*
 * A v1 client written the way the PHP integrations called the live service: the service's own PHP
 * sample (hjoelr/zoom-api at 80436e4, ZoomRESTAPIPHP.php: sendRequest with http_build_query,
 * data_type=JSON, json_decode), the WordPress plugin "Video Conferencing with Zoom API"
 * (techies23/video-conference-zoom at 5ea9db2: user/create, then user/delete with id alone;
 * meeting options as PHP booleans) and the Moodle plugin (ncstate-delta/moodle-mod_zoom at ccad80e:
 * getbyemail tried per login_type, report dates read back with sscanf). Our own program, over PHP
 * stream contexts (Debian's php-cli has no curl extension). It prints one JSON object of what it read.
 *
 * Environment: V1_BASE_URL (…/v1), V1_API_KEY, V1_API_SECRET, OWNER_EMAIL, REPORT_FROM, REPORT_TO.
 */

function send_request(string $called_function, array $data)
{
    $data['api_key'] = getenv('V1_API_KEY');
    $data['api_secret'] = getenv('V1_API_SECRET');
    $data['data_type'] = 'JSON';
    $context = stream_context_create(['http' => [
        'method' => 'POST',
        'header' => "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\n",
        'content' => http_build_query($data),
        'ignore_errors' => true,
    ]]);
    $response = file_get_contents(getenv('V1_BASE_URL') . '/' . $called_function, false, $context);
    if ($response === false) {
        fail("$called_function: no answer");
    }
    $decoded = json_decode($response);
    if ($decoded === null) {
        fail("$called_function: not JSON: $response");
    }
    return $decoded;
}

function fail(string $message)
{
    fwrite(STDERR, $message . "\n");
    exit(1);
}

function succeed(string $called_function, array $data)
{
    $answer = send_request($called_function, $data);
    if (isset($answer->error)) {
        fail("$called_function: v1 error {$answer->error->code} {$answer->error->message}");
    }
    return $answer;
}

// Moodle: the owner is looked up per login type until one answers.
$owner = null;
foreach ([99, 100, 101] as $login_type) {
    $answer = send_request('user/getbyemail', ['email' => getenv('OWNER_EMAIL'), 'login_type' => $login_type]);
    if (!isset($answer->error)) {
        $owner = $answer;
        break;
    }
}
if ($owner === null) {
    fail('user/getbyemail: no login type found the owner');
}

// WordPress: invite a user, then delete it by id alone.
$invited = succeed('user/create', ['email' => 'php.' . getmypid() . '@example.com', 'type' => 1, 'first_name' => 'Php', 'last_name' => 'User', 'dept' => '']);
$deleted_user = succeed('user/delete', ['id' => $invited->id]);

// WordPress: a meeting with PHP booleans (true/false become 1/0) and no password (null is left out).
$meeting = succeed('meeting/create', [
    'host_id' => $owner->id,
    'topic' => 'Typed PHP',
    'type' => 8,
    'recurrence' => json_encode(['type' => 1, 'end_times' => 2]),
    'start_time' => gmdate('Y-m-d\TH:i:s\Z', strtotime('2035-06-03 15:00:00 UTC')),
    'timezone' => 'UTC',
    'password' => null,
    'duration' => 30,
    'option_jbh' => true,
    'option_host_video' => false,
]);
// The sample's updateMeetingInfo: id and host_id, and what changes.
$updated = succeed('meeting/update', ['id' => $meeting->id, 'host_id' => $owner->id, 'topic' => 'Renamed by PHP']);
$read = succeed('meeting/get', ['id' => $meeting->id, 'host_id' => $owner->id]);

$report = succeed('report/getaccountreport', ['from' => getenv('REPORT_FROM'), 'to' => getenv('REPORT_TO')]);
$dashboard = succeed('metrics/meetings', ['type' => 2, 'from' => getenv('REPORT_FROM'), 'to' => getenv('REPORT_TO')]);
succeed('meeting/delete', ['id' => $read->id, 'host_id' => $owner->id]);

echo json_encode([
    'owner_id' => $owner->id,
    'deleted_user_id' => $deleted_user->id,
    'invited_id' => $invited->id,
    'meeting_id' => $meeting->id,
    'meeting_id_type' => gettype($meeting->id),
    'updated_id' => $updated->id,
    'meeting_type' => $read->type,
    'meeting_topic' => $read->topic,
    'option_jbh' => $read->option_jbh,
    'option_host_video' => $read->option_host_video,
    'report_from' => sscanf($report->from, '%u-%u-%u'),
    'dashboard_ids' => array_map(function ($m) { return $m->id; }, $dashboard->meetings),
    'dashboard_durations' => array_map(function ($m) { return $m->duration; }, $dashboard->meetings),
]), "\n";
