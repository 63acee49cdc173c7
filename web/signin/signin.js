// Progressive enhancement only: the page works without this script.
(function () {
  "use strict";

  // Arrow keys move between the person cards, as in a list box.
  var cards = Array.prototype.slice.call(document.querySelectorAll(".person-card"));
  cards.forEach(function (card, i) {
    card.addEventListener("keydown", function (event) {
      var next = null;
      if (event.key === "ArrowDown") next = cards[i + 1];
      if (event.key === "ArrowUp") next = cards[i - 1];
      if (event.key === "Home") next = cards[0];
      if (event.key === "End") next = cards[cards.length - 1];
      if (next) {
        event.preventDefault();
        next.focus();
      }
    });
  });

  // One sign-in per page: once a form is sent, its buttons say so and cannot send it again.
  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function () {
      window.setTimeout(function () {
        document.querySelectorAll("button").forEach(function (b) {
          b.disabled = true;
        });
      }, 0);
      form.setAttribute("aria-busy", "true");
    });
  });

  // "Use another account" takes the keyboard to the first card.
  var another = document.querySelector(".another-account");
  if (another && cards.length) {
    another.addEventListener("click", function (event) {
      event.preventDefault();
      cards[0].scrollIntoView({ block: "nearest" });
      cards[0].focus();
    });
  }

  // After an error in the custom form, put the cursor where it is needed.
  var custom = document.getElementById("custom");
  if (custom && custom.open) {
    var sub = document.getElementById("custom-sub");
    if (sub) sub.focus();
  }
})();
