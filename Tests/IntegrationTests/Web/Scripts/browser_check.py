"""The page in a real headless Chromium, driven by chromedriver through Selenium:
python3 browser_check.py URL TODO SOCKET DAEMON_PID SCREENSHOT -- TODOD ARGS...

TODO is the todo binary, SOCKET the daemon's socket, DAEMON_PID the running daemon, which the
check kills with SIGKILL and starts again as `TODOD ARGS...` (printing `restarted PID` on
stderr, and killing it at the end). Prints one line per check; exits 0 if all hold."""

import json
import os
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

url, todo, socket_path, daemon_pid, screenshot = sys.argv[1:6]
daemon_command = sys.argv[sys.argv.index("--") + 1:]
# Deadlines only against hangs: the timings printed are for the record, never judged.
PATIENCE = 20


def todo_json(*arguments):
    output = subprocess.run([todo, "--socket", socket_path, "--no-autostart", *arguments],
                            check=True, capture_output=True, text=True, timeout=PATIENCE).stdout
    return json.loads(output)


def todo_run(*arguments):
    subprocess.run([todo, "--socket", socket_path, "--no-autostart", *arguments],
                   check=True, capture_output=True, timeout=PATIENCE)


def wait(driver, condition, what):
    start = time.monotonic()
    WebDriverWait(driver, PATIENCE, poll_frequency=0.02).until(lambda d: condition(d), what)
    print(f"ok: {what} ({(time.monotonic() - start) * 1000:.0f} ms)", flush=True)


def wait_for(condition, what):
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > PATIENCE:
            raise AssertionError(f"timed out: {what}")
        time.sleep(0.02)
    print(f"ok: {what} ({(time.monotonic() - start) * 1000:.0f} ms)", flush=True)


def item(driver, number):
    found = driver.find_elements(By.CSS_SELECTOR, f'[data-item-number="{number}"]')
    return found[0] if found else None


def checked(driver, number):
    row = item(driver, number)
    return row is not None and row.find_element(By.CSS_SELECTOR, "input[type=checkbox]").is_selected()


def connection(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-connection]").get_attribute("data-connection")


def version(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-version]").text


options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,800"]:
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
restarted = None
try:
    driver.get(url)
    check_url = driver.current_url
    assert "token" not in check_url, check_url
    print(f"ok: redirected to {check_url}, without the token", flush=True)
    # The page's patch.js on the RFC 6902 cases the daemon's JSONPatch is tested on
    # (PatchCasesTests): the same answer to each, in the browser itself.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "patch_cases.json")) as file:
        patch_cases = json.load(file)
    outcomes = driver.execute_async_script("""
        const [cases, done] = arguments;
        import("/patch.js").then(({ applyPatch }) => done(cases.map((c) => {
          try { return { value: applyPatch(c.document, c.patch) }; } catch (error) { return { error: String(error) }; }
        })), (error) => done(String(error)));
        """, patch_cases)
    assert isinstance(outcomes, list), outcomes
    for case, outcome in zip(patch_cases, outcomes):
        if case.get("error"):
            assert "error" in outcome, f"{case['name']}: patch.js gave {outcome}"
        else:
            assert outcome.get("value") == case["expected"], f"{case['name']}: patch.js gave {outcome}"
    print(f"ok: patch.js follows the {len(patch_cases)} RFC 6902 cases as the daemon does", flush=True)
    wait(driver, lambda d: connection(d) == "live", "the page is live")
    wait(driver, lambda d: item(d, 1) is not None and "first from the shell" in item(d, 1).text,
         "the list is shown")

    form = driver.find_element(By.CSS_SELECTOR, 'form[data-action="add"]')
    form.find_element(By.CSS_SELECTOR, 'input[name="text"]').send_keys("added in the page", Keys.ENTER)
    wait_for(lambda: any(i["text"] == "added in the page" for i in todo_json("list", "--json")["items"]),
             "an add in the page is in todo list")

    todo_run("done", "1")
    wait(driver, lambda d: checked(d, 1), "todo done 1 is a checked box in the page")

    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(check_url)
    wait(driver, lambda d: connection(d) == "live" and item(d, 2) is not None, "a second tab is live")
    second = driver.current_window_handle
    item(driver, 2).find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()
    driver.switch_to.window(first)
    wait(driver, lambda d: checked(d, 2), "a toggle in the second tab shows in the first")
    item(driver, 2).find_element(By.CSS_SELECTOR, "[data-edit]").click()
    field = item(driver, 2).find_element(By.CSS_SELECTOR, "input[type=text]")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("edited in the page", Keys.ENTER)
    driver.switch_to.window(second)
    wait(driver, lambda d: item(d, 2) is not None and "edited in the page" in item(d, 2).text,
         "an edit in the first tab shows in the second")
    driver.find_element(By.CSS_SELECTOR, "[data-undo]").click()
    wait_for(lambda: any(i["text"] == "added in the page" for i in todo_json("list", "--json")["items"]),
             "undo in the page reverts the edit")
    item(driver, 2).find_element(By.CSS_SELECTOR, "[data-remove]").click()
    wait_for(lambda: all(i["number"] != 2 for i in todo_json("list", "--json")["items"]),
             "a delete in the page removes the item")
    driver.switch_to.window(first)
    wait(driver, lambda d: item(d, 2) is None, "the delete shows in the other tab")

    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys("a")
    assert driver.switch_to.active_element.get_attribute("name") == "text"
    driver.switch_to.active_element.send_keys("by keyboard", Keys.ENTER)
    wait(driver, lambda d: item(d, 3) is not None, "the keyboard adds (a, type, Enter)")
    driver.execute_script("arguments[0].focus()", item(driver, 3))
    driver.switch_to.active_element.send_keys(" ")
    wait(driver, lambda d: checked(d, 3), "Space on a focused row marks it done")
    label = driver.find_element(By.CSS_SELECTOR, 'label[for="add-text"]').text
    assert label, "the add field has a label"
    print("ok: the controls have labels", flush=True)

    os.kill(int(daemon_pid), signal.SIGKILL)
    wait(driver, lambda d: connection(d) == "reconnecting", "kill -9 of the daemon shows reconnecting")
    restarted = subprocess.Popen(daemon_command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"restarted {restarted.pid}", file=sys.stderr, flush=True)
    wait_for(lambda: os.path.exists(socket_path) and subprocess.run(
        [todo, "--socket", socket_path, "--no-autostart", "status"], capture_output=True).returncode == 0,
        "the daemon is back")
    todo_run("add", "after the restart")
    final = str(todo_json("list", "--json") and subprocess.run(
        [todo, "--socket", socket_path, "--no-autostart", "status"], capture_output=True, text=True).stdout)
    wait(driver, lambda d: connection(d) == "live" and any(
        "after the restart" in r.text for r in d.find_elements(By.CSS_SELECTOR, "[data-item-number]")),
        "then live, with the state caught up")
    print(f"ok: version shown {version(driver)}; todo status says {final.strip().splitlines()}", flush=True)

    driver.set_window_size(1000, 700)
    driver.save_screenshot(screenshot)
    print(f"ok: screenshot {screenshot}", flush=True)
    driver.set_window_size(320, 700)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    inner = driver.execute_script("return window.innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"
    print(f"ok: readable at 320 px (no horizontal scroll: {width} <= {inner})", flush=True)
    driver.save_screenshot(screenshot.replace(".png", "-320.png"))
finally:
    driver.quit()
    if restarted is not None:
        restarted.terminate()
        try:
            restarted.wait(timeout=10)
        except subprocess.TimeoutExpired:
            restarted.kill()
            restarted.wait()
