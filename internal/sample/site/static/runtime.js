// Ledger app runtime: a tiny render helper the app script uses.
window.ledgerRuntime = {
  render: function (root, items) {
    var list = document.createElement("ul");
    items.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
    root.appendChild(list);
  }
};
