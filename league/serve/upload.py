"""A version's upload, the same for the form (``/submit``) and the API (``POST /api/submissions``).

The form's fields are ``archive`` (the .zip or .tar.gz file) and ``command`` (shell words, split as a
shell would); ``Contest.submit`` does the rest (``league.contest.submit.accept_upload``) and its
refusal (``SubmissionRefused``: a sentence and an HTTP status) is passed on as it is.
"""

from __future__ import annotations

import shlex

from starlette.datastructures import FormData, UploadFile

from league.contest.model import Submission
from league.contest.submit import SubmissionRefused
from league.serve.state import Web


class Refused(Exception):
    """An upload refused: ``sentence`` (names the fix) with its HTTP ``status``."""

    def __init__(self, sentence: str, status: int) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.status = status


async def submitted(web: Web, author: str, form: FormData) -> Submission:
    """The submission made of a form's ``archive`` and ``command`` by ``author``.

    Raises:
        Refused: A field is missing or wrong, or the contest refused the version.
    """
    archive = form.get("archive")
    command = form.get("command")
    if not isinstance(archive, UploadFile):
        raise Refused("the upload has no archive file; send the bot's folder as .zip or .tar.gz in field archive", 400)
    if not isinstance(command, str) or not command.strip():
        raise Refused('the upload has no command; give how to start the bot, e.g. "python3 bot.py"', 400)
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise Refused(f"the command {command!r} is not shell words ({error}); fix its quotes", 400) from None
    data = await archive.read()
    if len(data) > web.upload_cap():
        raise Refused(f"the archive is over {web.upload_cap() // (1024 * 1024)} MB; send a smaller one", 413)
    try:
        return await web.call("submit", author, data, argv)
    except SubmissionRefused as refused:
        raise Refused(refused.message, refused.http_status) from None
