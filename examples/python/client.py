#!/usr/bin/env python3
"""A Python client of the AI text detector, standard library only: scores a text, scores a file
(POST /v1/detect/batch), and, given a folder of texts known to be human-written (and optionally one of
your AI examples, which adapt the profile to your generators), makes a calibration profile from them,
says what it learned, scores the text with it (the adapted score and the model's own), lists the key's
profiles and deletes it; then reads the key's usage.

    DETECTOR_URL=http://localhost:3000 DETECTOR_KEY=ak_... python3 examples/python/client.py essay.pdf [known-human-folder [ai-examples-folder]]

Prints one JSON object per step on stdout (the same steps as examples/typescript/client.ts).
"""
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

SAMPLE = (
    "In today\u2019s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. "
    "Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. "
    "Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities."
)

# Answers worth retrying with the same Idempotency-Key: the store was busy, or the first try still runs.
RETRYABLE = {409, 503}


def retryable(status, headers):
    """409 and 503; and a 429 only with Retry-After: rate_limited (seconds). A quota 429 has none: the month is used up."""
    return status in RETRYABLE or (status == 429 and headers.get("Retry-After") is not None)


class DetectorError(Exception):
    """An answer with the API's error body: branch on `code`, show `message`."""

    def __init__(self, status, code, message):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class DetectorClient:
    """One base URL and one key (sent as X-API-Key; Authorization: Bearer works as well)."""

    def __init__(self, base_url, key, timeout=60):
        self.base_url, self.key, self.timeout = base_url.rstrip("/"), key, timeout

    def _request(self, path, body=None, headers=None, attempts=3, method=None):
        headers = {"X-API-Key": self.key, **(headers or {})}
        for attempt in range(1, attempts + 1):
            request = urllib.request.Request(self.base_url + path, data=body, headers=headers, method=method or ("POST" if body else "GET"))
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)
            except urllib.error.HTTPError as error:
                if retryable(error.code, error.headers) and attempt < attempts:
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                    continue
                payload = json.loads(error.read().decode("utf-8"))
                raise DetectorError(error.code, payload["error"]["code"], payload["error"]["message"]) from None
            except urllib.error.URLError:
                # A network failure: safe to retry only because the request carries an Idempotency-Key.
                if attempt >= attempts or "Idempotency-Key" not in headers:
                    raise
                time.sleep(1)

    def detect_text(self, text, sensitivity="conservative", calibration=None):
        """Scores one text; retried safely (charged once) thanks to the Idempotency-Key. With `calibration`
        (a profile id of this key), the verdict uses the profile's thresholds where it covers the text."""
        fields = {"text": text, "sensitivity": sensitivity, **({"calibration": calibration} if calibration else {})}
        body = json.dumps(fields).encode("utf-8")
        headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
        with self._request("/v1/detect", body, headers) as response:
            return json.loads(response.read().decode("utf-8"))

    def detect_files(self, paths, detail=False):
        """Scores files (TXT, MD, DOCX, PDF); yields each NDJSON line (a dict) as it arrives."""
        body, content_type = multipart(paths, {"detail": "full"} if detail else {})
        headers = {"Content-Type": content_type, "Idempotency-Key": str(uuid.uuid4())}
        # Batch has its own operation: one answer type (NDJSON) for generated clients.
        with self._request("/v1/detect/batch", body, headers) as response:
            for raw in response:  # the stream is read line by line, as the server flushes it
                line = raw.decode("utf-8").strip()
                if line:
                    yield json.loads(line)

    def calibrate(self, name, paths, ai_paths=()):
        """Makes a calibration profile from known-human files (one text each, 50+ per language) and, optionally,
        AI examples of your generators (50+ per language to adapt it), charged like detecting them; files it
        cannot use are named in `skippedFiles`. Sent once, never retried: the route takes no Idempotency-Key,
        so a retry could make a second profile."""
        body, content_type = multipart(paths, {"name": name}, ai_paths)
        with self._request("/v1/calibrations", body, {"Content-Type": content_type}, attempts=1) as response:
            return json.loads(response.read().decode("utf-8"))

    def calibrations(self):
        """The key's calibration profiles, newest first (not charged)."""
        with self._request("/v1/calibrations") as response:
            return json.loads(response.read().decode("utf-8"))

    def delete_calibration(self, profile_id):
        """Deletes a profile of the key (204); detections naming it then get 404 calibration_not_found."""
        with self._request(f"/v1/calibrations/{urllib.parse.quote(profile_id)}", method="DELETE"):
            pass

    def usage(self):
        """The key's plan, words used and left this month, calls, trial calls left (not charged)."""
        with self._request("/v1/usage") as response:
            return json.loads(response.read().decode("utf-8"))


def multipart(paths, fields, ai_paths=()):
    """A multipart/form-data body: the text fields, then each file as a part `files[]` (and each AI example as
    `aiFiles[]`); and its Content-Type."""
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode("utf-8") for name, value in fields.items()]
    for part, path in [("files[]", p) for p in paths] + [("aiFiles[]", p) for p in ai_paths]:
        with open(path, "rb") as handle:
            content = handle.read()
        name = os.path.basename(path).replace('"', "_")
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{part}"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n".encode("utf-8") + content + b"\r\n"
        )
    return b"".join(parts) + f"--{boundary}--\r\n".encode("utf-8"), f"multipart/form-data; boundary={boundary}"


def folder_paths(folder):
    """The files of a folder, in name order."""
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))]


def calibration_steps(client, folder, ai_folder=None):
    """Make a profile from the folder's files (and AI examples), say per language whether it adapted, score the
    sample with it, list the key's profiles, delete it."""
    profile = client.calibrate("Known-human examples", folder_paths(folder), folder_paths(ai_folder) if ai_folder else ())
    texts = {lang: language["texts"] for lang, language in profile["languages"].items()}
    skipped_files = [{"fileName": f["fileName"], "code": f["code"]} for f in profile.get("skippedFiles", [])]
    # Per language: adapted to the AI examples (and what it catches of them at balanced, beside the model alone), or why not.
    adaptation = {}
    for lang, language in profile["languages"].items():
        adapted = language.get("adaptation")
        if adapted:
            balanced = adapted["modes"]["balanced"]
            adaptation[lang] = {"aiTexts": adapted["aiTexts"], "catchRate": balanced["catchRate"], "modelCatchRate": balanced["modelCatchRate"]}
        else:
            adaptation[lang] = {"notAdapted": (language.get("notAdapted") or {}).get("reason")}
    print(json.dumps({"step": "calibrate", "id": profile["id"], "texts": texts, "skipped": profile["skipped"], "skippedFiles": skipped_files, "adaptation": adaptation}))
    scored = client.detect_text(SAMPLE, "balanced", profile["id"])
    # `applied: false` names why the profile did not decide this text (its length or type is not covered...);
    # `adapted: true`: `score` is the adapted score, `modelScore` the model's own.
    calibration = scored["calibration"]
    print(json.dumps({"step": "calibrated", "score": scored["score"], "verdictKey": scored["verdictKey"], "calibration": calibration, "adapted": calibration.get("adapted", False), "modelScore": calibration.get("modelScore"), "measuredError": scored["measuredError"]["source"]}))
    print(json.dumps({"step": "profiles", "ids": [c["id"] for c in client.calibrations()["calibrations"]]}))
    client.delete_calibration(profile["id"])
    print(json.dumps({"step": "deleted", "id": profile["id"]}))


def main():
    base_url = os.environ.get("DETECTOR_URL", "http://localhost:3000")
    key = os.environ.get("DETECTOR_KEY")
    if not key or len(sys.argv) not in (2, 3, 4):
        print("usage: DETECTOR_URL=http://localhost:3000 DETECTOR_KEY=ak_... python3 examples/python/client.py FILE [KNOWN_HUMAN_FOLDER [AI_EXAMPLES_FOLDER]]", file=sys.stderr)
        return 2
    client = DetectorClient(base_url, key)
    text = client.detect_text(SAMPLE)
    print(json.dumps({"step": "text", "score": text["score"], "verdictKey": text["verdictKey"], "words": text["words"], "modelVersion": text["modelVersion"]}))
    for line in client.detect_files([sys.argv[1]], detail=True):
        if line["type"] == "result":
            why = line["bullets"][0]["text"] if line.get("bullets") else ""
            print(json.dumps({"step": "file", "fileName": line["fileName"], "score": line["score"], "verdictKey": line["verdictKey"], "words": line["words"], "why": why}))
        elif line["type"] == "error":
            print(json.dumps({"step": "file", "fileName": line["fileName"], "error": line["code"]}))
    if len(sys.argv) >= 3:
        calibration_steps(client, sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    usage = client.usage()
    print(json.dumps({"step": "usage", "plan": usage["plan"], "words": usage["words"], "calls": usage["calls"], "trial": usage["trial"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
