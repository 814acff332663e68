// Ledger app: fills #root 700 ms after load, as a slow single-page app would.
(function () {
  function hydrate() {
    var root = document.getElementById("root");
    if (!root) { return; }
    var h1 = document.createElement("h1");
    h1.textContent = "This week's baskets";
    root.appendChild(h1);
    var p = document.createElement("p");
    p.textContent = "Baskets recorded at the packing shed since Monday, newest first.";
    root.appendChild(p);
    window.ledgerRuntime.render(root, [
      "U7, premium grade, 4.2 kg, plucked by R. Amadi",
      "L3, standard grade, 5.8 kg, plucked by S. Brandt",
      "U2, premium grade, 3.9 kg, plucked by A. Velasquez-Roe"
    ]);
  }
  window.addEventListener("load", function () { setTimeout(hydrate, 700); });
})();
