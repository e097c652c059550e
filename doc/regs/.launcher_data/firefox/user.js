user_pref("app.normandy.first_run", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);

user_pref("security.fileuri.strict_origin_policy", false);