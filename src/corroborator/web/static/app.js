// Progressive help only: every page works without it. No data from documents is ever
// inserted as HTML here.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("review-form");
  if (!form) { return; }
  function pick(value) {
    var radio = form.querySelector('input[name="action"][value="' + value + '"]');
    if (radio) { radio.checked = true; }
  }
  var other = form.querySelector('input[name="other"]');
  if (other) { other.addEventListener("input", function () { pick("merge"); }); }
  var val = form.querySelector('input[name="value"]');
  if (val) { val.addEventListener("input", function () { pick("correct"); }); }
  form.querySelectorAll('input[name="mentions"]').forEach(function (box) {
    box.addEventListener("change", function () { pick("split"); });
  });
});
