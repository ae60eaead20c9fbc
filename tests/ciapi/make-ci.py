#!/usr/bin/env python3
"""Build the world that tests/ciapi/server.py serves, from a short spec.

The spec names the runs (GitHub) and jobs (GitLab) and where each
artifact's files are; this writes WORLD (the API's answers in the shapes of
the GitHub REST API and GitLab API documentation examples) and the
artifacts as zip files beside it (blobs/). The world is replaced
atomically, so a running server picks up a whole new one.

  {"token": "T", "gitlab_token": "G" (default: T), "page_size": 2,
   "github": {"project": "acme/ledger", "runs": [
      {"id": 1001, "workflow": "shadow.yml", "created_at": "...",
       "updated_at": "...", "run_started_at": "...", "head_sha": "...",
       "status": "completed", "conclusion": "success", "run_attempt": 1,
       "artifacts": [{"id": 5001, "name": "tiadash-shadow-1",
                      "dir": "recs/a",        zip the folder's contents,
                      "prefix": "",           under this path in the zip,
                      "entries": {"NAME": "FILE"},   or exactly these,
                      "expired": false, "size_in_bytes": N}],
       "jobs": [{"id": 9001, "name": "shadow", "started_at": "...",
                 "completed_at": "..."}]}]},
   "gitlab": {"project": "group/ledger", "id": 42, "redirect": true,
              "direct": [JOB...],       these answer the archive directly
              "jobs": [
      {"id": 2001, "name": "shadow", "status": "success", "created_at": "...",
       "started_at": "...", "finished_at": "...", "duration": 754.5,
       "sha": "...", "archive": {"dir": ..., "prefix": ..., "entries": ...,
                                 "gone": true (listed, but answered 404)},
       "artifacts_expire_at": "..."}]},
   "rules": {"/PATH": RULE}}

usage: make-ci.py SPEC WORLD
"""
import json
import os
import sys
import zipfile


def make_zip(path, art, base):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        prefix = art.get("prefix", "")
        if "dir" in art:
            top = os.path.join(base, art["dir"])
            for dirpath, dirnames, files in sorted(os.walk(top)):
                dirnames.sort()
                for name in sorted(files):
                    file = os.path.join(dirpath, name)
                    rel = os.path.relpath(file, top).replace(os.sep, "/")
                    z.write(file, prefix + rel)
        for name, file in art.get("entries", {}).items():
            with open(os.path.join(base, file), "rb") as f:
                # A ZipInfo keeps the name as given ("../x", "/abs", "a\\b").
                info = zipfile.ZipInfo(name, (2026, 11, 2, 10, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, f.read())


def actor():
    return {"login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
            "avatar_url": "https://github.com/images/error/octocat_happy.gif",
            "type": "User", "site_admin": False}


def github_run(api, project, r):
    wf = r["workflow"]
    rid = r["id"]
    base = "%s/repos/%s/actions/runs/%d" % (api, project, rid)
    return {
        "id": rid,
        "name": wf.rsplit(".", 1)[0],
        "node_id": "WFR_kwLOA%d" % rid,
        "check_suite_id": 40000 + rid,
        "check_suite_node_id": "CS_kwDOA%d" % rid,
        "head_branch": r.get("head_branch", "feature"),
        "head_sha": r["head_sha"],
        "path": ".github/workflows/%s" % wf,
        "run_number": rid - 1000,
        "event": "pull_request",
        "display_title": r.get("display_title", "Change %d" % rid),
        "status": r.get("status", "completed"),
        "conclusion": r.get("conclusion", "success"),
        "workflow_id": r.get("workflow_id", 159038),
        "url": base,
        "html_url": "https://github.com/%s/actions/runs/%d" % (project, rid),
        "pull_requests": [],
        "created_at": r["created_at"],
        "updated_at": r["updated_at"],
        "actor": actor(),
        "run_attempt": r.get("run_attempt", 1),
        "referenced_workflows": [],
        "run_started_at": r.get("run_started_at", r["created_at"]),
        "triggering_actor": actor(),
        "jobs_url": base + "/jobs",
        "logs_url": base + "/logs",
        "check_suite_url": "%s/repos/%s/check-suites/%d" % (api, project, 40000 + rid),
        "artifacts_url": base + "/artifacts",
        "cancel_url": base + "/cancel",
        "rerun_url": base + "/rerun",
        "previous_attempt_url": None,
        "workflow_url": "%s/repos/%s/actions/workflows/159038" % (api, project),
        "head_commit": {"id": r["head_sha"], "tree_id": r["head_sha"],
                        "message": "Change %d" % rid, "timestamp": r["created_at"],
                        "author": {"name": "Tester", "email": "t@example.com"},
                        "committer": {"name": "Tester", "email": "t@example.com"}},
        "repository": {"id": 1296269, "name": project.split("/")[1],
                       "full_name": project, "private": False},
        "head_repository": {"id": 1296269, "name": project.split("/")[1],
                            "full_name": project, "private": False},
    }


def github_artifact(api, project, run, a, size):
    aid = a["id"]
    return {
        "id": aid,
        "node_id": "MDg6QXJ0aWZhY3Q%d" % aid,
        "name": a["name"],
        "size_in_bytes": a.get("size_in_bytes", size),
        "url": "%s/repos/%s/actions/artifacts/%d" % (api, project, aid),
        "archive_download_url": "%s/repos/%s/actions/artifacts/%d/zip" % (api, project, aid),
        "expired": a.get("expired", False),
        "created_at": run["updated_at"],
        "expires_at": "2027-02-01T00:00:00Z",
        "updated_at": run["updated_at"],
        "digest": "sha256:cfc3236bdad15b5898bca8408945c9e19e1917da8704adc20eaa618444290a8c",
        "workflow_run": {"id": run["id"], "repository_id": 1296269,
                         "head_repository_id": 1296269,
                         "head_branch": run.get("head_branch", "feature"),
                         "head_sha": run["head_sha"]},
    }


def github_job(api, project, run, j):
    jid = j["id"]
    return {
        "id": jid,
        "run_id": run["id"],
        "run_url": "%s/repos/%s/actions/runs/%d" % (api, project, run["id"]),
        "node_id": "MDg6Q2hlY2tSdW4%d" % jid,
        "head_sha": run["head_sha"],
        "url": "%s/repos/%s/actions/jobs/%d" % (api, project, jid),
        "html_url": "https://github.com/%s/runs/%d" % (project, jid),
        "status": "completed",
        "conclusion": j.get("conclusion", "success"),
        "created_at": j["started_at"],
        "started_at": j["started_at"],
        "completed_at": j["completed_at"],
        "name": j["name"],
        "steps": [{"name": "Set up job", "status": "completed", "conclusion": "success",
                   "number": 1, "started_at": j["started_at"],
                   "completed_at": j["started_at"]}],
        "check_run_url": "%s/repos/%s/check-runs/%d" % (api, project, jid),
        "labels": ["ubuntu-latest"],
        "runner_id": 1,
        "runner_name": "GitHub Actions 1",
        "runner_group_id": 2,
        "runner_group_name": "GitHub Actions",
        "workflow_name": run["workflow"].rsplit(".", 1)[0],
        "head_branch": run.get("head_branch", "feature"),
    }


def gitlab_job(project, j, size):
    job = {
        "commit": {"author_email": "t@example.com", "author_name": "Tester",
                   "created_at": j["created_at"], "id": j["sha"], "message": "Change",
                   "short_id": j["sha"][:8], "title": "Change"},
        "coverage": None,
        "archived": False,
        "allow_failure": j["name"] == "shadow",
        "created_at": j["created_at"],
        "started_at": j.get("started_at"),
        "finished_at": j.get("finished_at"),
        "erased_at": None,
        "duration": j.get("duration"),
        "queued_duration": 0.01,
        "artifacts_file": None,
        "artifacts": [],
        "artifacts_expire_at": j.get("artifacts_expire_at"),
        "tag_list": ["docker runner"],
        "id": j["id"],
        "name": j["name"],
        "pipeline": {"id": j.get("pipeline", 6), "project_id": project["id"],
                     "ref": "feature", "sha": j["sha"], "status": "success"},
        "ref": "feature",
        "runner": None,
        "stage": "test",
        "status": j["status"],
        "failure_reason": "script_failure" if j["status"] == "failed" else None,
        "tag": False,
        "web_url": "https://gitlab.example.com/%s/-/jobs/%d" % (project["project"], j["id"]),
        "project": {"ci_job_token_scope_enabled": False},
        "user": {"id": 1, "name": "Tester", "username": "tester", "state": "active"},
    }
    if size is not None:
        job["artifacts_file"] = {"filename": "artifacts.zip", "size": size}
        job["artifacts"] = [
            {"file_type": "archive", "size": size, "filename": "artifacts.zip",
             "file_format": "zip"},
            {"file_type": "metadata", "size": 186, "filename": "metadata.gz",
             "file_format": "gzip"},
            {"file_type": "trace", "size": 1500, "filename": "job.log",
             "file_format": None}]
    return job


def main():
    spec_path, world_path = sys.argv[1:3]
    with open(spec_path) as f:
        spec = json.load(f)
    base = os.path.dirname(os.path.abspath(spec_path))
    out = os.path.dirname(os.path.abspath(world_path))
    os.makedirs(os.path.join(out, "blobs"), exist_ok=True)
    api = spec.get("api", "https://api.github.com")
    world = {"token": spec.get("token"), "gitlab_token": spec.get("gitlab_token"),
             "page_size": spec.get("page_size", 100),
             "rules": spec.get("rules", {}), "github": {}, "gitlab": {}, "blobs": {}}
    gh = spec.get("github")
    if gh:
        project = gh["project"]
        repo = {"runs": [], "artifacts": {}, "jobs": {}}
        for r in gh["runs"]:
            repo["runs"].append(github_run(api, project, r))
            arts = []
            for a in r.get("artifacts", []):
                blob = "blobs/github-%d.zip" % a["id"]
                make_zip(os.path.join(out, blob), a, base)
                world["blobs"]["github/%d" % a["id"]] = blob
                arts.append(github_artifact(api, project, r, a,
                                            os.path.getsize(os.path.join(out, blob))))
            repo["artifacts"][str(r["id"])] = arts
            repo["jobs"][str(r["id"])] = [github_job(api, project, r, j)
                                          for j in r.get("jobs", [])]
        world["github"][project] = repo
    gl = spec.get("gitlab")
    if gl:
        jobs = []
        for j in gl["jobs"]:
            size = None
            if j.get("archive") is not None and j["archive"].get("gone"):
                size = 1234  # listed, but the server has no archive: 404
            elif j.get("archive") is not None:
                blob = "blobs/gitlab-%d.zip" % j["id"]
                make_zip(os.path.join(out, blob), j["archive"], base)
                world["blobs"]["gitlab/%d" % j["id"]] = blob
                size = j["archive"].get("size", os.path.getsize(os.path.join(out, blob)))
            jobs.append(gitlab_job(gl, j, size))
        entry = {"jobs": jobs, "redirect": gl.get("redirect", False),
                 "direct": gl.get("direct", [])}
        world["gitlab"][gl["project"]] = entry
        world["gitlab"][str(gl["id"])] = entry
    tmp = world_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(world, f, indent=1)
    os.rename(tmp, world_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
