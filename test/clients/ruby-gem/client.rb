# frozen_string_literal: true

# The Ruby v1 gem, unchanged, as an integration used it.
#
# mllocs/zoomus at 0.7.0 (its last release, "A Ruby wrapper for zoom.us API v1"), vendored under
# ../vendor/ruby-zoomus/, over Debian's ruby-httparty and Ruby's json: every param in the query
# string of a POST with no body (HTTParty's `:query =>`, the key pair as its default_params), Time
# values sent as "%FT%TZ" (Utils.process_datetime_params!), each answer HTTParty's
# parsed_response. The calls are the gem's bang methods, which raise Zoomus::Error with the v1
# error's message (Utils.raise_if_error!). The only thing changed is where it calls: HTTParty's
# public class method Zoomus::Client.base_uri, called from the outside.
#
# Each answer is checked against what the call sent or what an earlier answer said; the first that
# the gem refuses, that carries a v1 error, or that is wrong ends the program with a non-zero
# status and the reason on stderr. It prints one JSON object of what it read.
#
# Environment: V1_BASE_URL (…/v1), V1_API_KEY, V1_API_SECRET, OWNER_EMAIL, INVITE_EMAIL,
# REPORT_FROM, REPORT_TO (YYYY-MM-DD).

$LOAD_PATH.unshift File.expand_path('../vendor/ruby-zoomus/lib', __dir__)
require 'zoomus'
require 'time'

def fail!(message)
  warn message
  exit 1
end

def expect!(name, condition, detail)
  fail!("#{name}: #{detail}") unless condition
end

Zoomus::Client.base_uri ENV.fetch('V1_BASE_URL')
Zoomus.configure do |config|
  config.api_key = ENV.fetch('V1_API_KEY')
  config.api_secret = ENV.fetch('V1_API_SECRET')
end
zoom = Zoomus.new
out = {}

begin
  # Users: the owner by email, then the same user by id and in the list.
  owner = zoom.user_getbyemail!(email: ENV.fetch('OWNER_EMAIL'))
  expect!('user_getbyemail', owner['email'] == ENV.fetch('OWNER_EMAIL'), "email #{owner['email'].inspect}")
  by_id = zoom.user_get!(id: owner['id'])
  expect!('user_get', by_id['email'] == owner['email'], "another user: #{by_id['email'].inspect}")
  listed = zoom.user_list!(page_size: 300)
  expect!('user_list', listed['users'].map { |u| u['id'] }.include?(owner['id']), 'the owner is not listed')
  out[:owner_id] = owner['id']

  # An invitation: created, pending, renamed, deleted for good.
  invited = zoom.user_create!(type: 1, email: ENV.fetch('INVITE_EMAIL'))
  expect!('user_create', invited['email'] == ENV.fetch('INVITE_EMAIL'), "email #{invited['email'].inspect}")
  pending = zoom.user_pending!
  expect!('user_pending', pending['users'].map { |u| u['id'] }.include?(invited['id']), 'the invited user is not pending')
  zoom.user_update!(id: invited['id'], first_name: 'Gem')
  gone = zoom.user_permanent_delete!(id: invited['id'])
  expect!('user_permanent_delete', gone['id'] == invited['id'], "id #{gone['id'].inspect}")
  out[:invited_id] = invited['id']

  # A meeting: created with a Time, read, renamed, listed, deleted.
  start = Time.utc(2030, 2, 1, 14, 0, 0)
  meeting = zoom.meeting_create!(host_id: owner['id'], topic: 'Ruby gem', type: 2, start_time: start, duration: 30)
  expect!('meeting_create', meeting['start_time'] == '2030-02-01T14:00:00Z', "start_time #{meeting['start_time'].inspect}")
  read = zoom.meeting_get!(id: meeting['id'], host_id: owner['id'])
  expect!('meeting_get', read['id'] == meeting['id'] && read['duration'] == 30, "read #{read.inspect}")
  zoom.meeting_update!(id: meeting['id'], host_id: owner['id'], topic: 'Renamed by the gem')
  mine = zoom.meeting_list!(host_id: owner['id'], page_size: 300)['meetings'].select { |m| m['id'] == meeting['id'] }
  expect!('meeting_list', mine.map { |m| m['topic'] } == ['Renamed by the gem'], "listed #{mine.inspect}")
  zoom.meeting_delete!(id: meeting['id'], host_id: owner['id'])
  out[:meeting_id] = meeting['id']
  # A v1 error reaches the integration as Zoomus::Error carrying the answer's message, all it reads.
  begin
    zoom.meeting_get!(id: meeting['id'], host_id: owner['id'])
    fail!('meeting_get: the deleted meeting was found')
  rescue Zoomus::Error => e
    out[:deleted_meeting_error] = e.message
  end

  # A webinar: created, read, renamed, listed, deleted.
  webinar = zoom.webinar_create!(host_id: owner['id'], topic: 'Gem webinar', type: 5, start_time: start, duration: 60)
  expect!('webinar_get', zoom.webinar_get!(id: webinar['id'], host_id: owner['id'])['topic'] == 'Gem webinar', 'topic')
  zoom.webinar_update!(id: webinar['id'], host_id: owner['id'], topic: 'Renamed gem webinar')
  listed_webinar = zoom.webinar_list!(host_id: owner['id'])['webinars'].select { |w| w['id'] == webinar['id'] }
  expect!('webinar_list', listed_webinar.map { |w| w['topic'] } == ['Renamed gem webinar'], "listed #{listed_webinar.inspect}")
  zoom.webinar_delete!(id: webinar['id'], host_id: owner['id'])
  out[:webinar_id] = webinar['id']

  # The month of the two sessions the test made happen, sent as Times.
  from = Time.utc(*ENV.fetch('REPORT_FROM').split('-').map(&:to_i))
  to = Time.utc(*ENV.fetch('REPORT_TO').split('-').map(&:to_i))
  dashboard = zoom.metrics_meetings!(from: from, to: to, type: 2)
  out[:dashboard] = dashboard['meetings'].to_h { |m| [m['id'].to_s, m['duration']] }
  detail = zoom.metrics_meetingdetail!(meeting_id: dashboard['meetings'].first['uuid'], type: 2)
  expect!('metrics_meetingdetail', detail['id'] == dashboard['meetings'].first['id'], "id #{detail['id'].inspect}")
  out[:detail_participants] = detail['participants'].is_a?(Array)
  account = zoom.report_getaccountreport!(from: from, to: to)
  out[:report_from] = account['from']
  user_report = zoom.report_getuserreport!(user_id: owner['id'], from: from, to: to)
  out[:user_report_meetings] = user_report['meetings'].map { |m| m['number'] }
  daily = zoom.report_getdailyreport!(year: from.year, month: from.month)
  expect!('report_getdailyreport', daily['dates'].is_a?(Array), "dates #{daily['dates'].inspect}")
  out[:daily_dates] = daily['dates'].length
  recordings = zoom.recording_list!(host_id: owner['id'], from: from, to: to)
  out[:recordings] = recordings['total_records']
rescue Zoomus::Error => e
  fail!("v1 error: #{e.message} (at #{e.backtrace.find { |line| line.start_with?(__FILE__) }})")
end

puts JSON.generate(out)
